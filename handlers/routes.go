package handlers

import (
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"schedlab/static"
)

// Routes registers every route of the application on e.
func (s *Server) Routes(e *echo.Echo) {
	e.HTTPErrorHandler = s.errorHandler
	// Order matters: headers first (every answer, errors included, carries
	// them), then the body cap before anything reads a body, then the
	// origin check, who is asking, and what a change needs.
	e.Use(middleware.Recover(), secureHeaders, s.limitBody, crossOrigin(), s.identify, s.guard)

	e.GET("/static/*", echo.WrapHandler(static.Handler()))
	e.HEAD("/static/*", echo.WrapHandler(static.Handler()))
	e.GET("/healthz", s.healthz)

	// Pages.
	e.GET("/", s.home)
	e.GET("/login", s.loginPage)
	e.POST("/login", s.login)
	e.POST("/logout", s.logout)
	e.GET("/workloads", s.workloadsPage)
	e.POST("/workloads", s.uploadPage)
	e.POST("/workloads/generate", s.generatePage)
	e.GET("/workloads/:id", s.workloadPage)
	e.POST("/workloads/:id/all-variants", s.compareWorkloadVariants)
	e.GET("/runs", s.runsPage)
	e.GET("/runs/new", s.newRunPage)
	e.POST("/runs", s.startRunPage)
	e.GET("/runs/:id", s.runPage)
	e.POST("/runs/:id/cancel", s.cancelPage)
	e.POST("/runs/:id/rerun", s.rerunPage)
	e.POST("/runs/:id/delete", s.deletePage)
	e.POST("/runs/:id/all-variants", s.compareRunVariants)
	e.GET("/runs/:id/tables/:file", s.tableCSV)
	e.GET("/compare", s.comparePage)
	e.GET("/experiments", s.experimentsPage)
	e.GET("/experiments/new", s.newExperimentPage)
	e.POST("/experiments", s.startExperimentPage)
	e.GET("/experiments/:id", s.experimentPage)
	e.POST("/experiments/:id/cancel", s.cancelExperimentPage)
	e.POST("/experiments/:id/resume", s.resumeExperimentPage)
	e.GET("/reproduce", s.reproducePage)
	e.GET("/workers", s.workersPage)
	e.GET("/api/workers", s.apiWorkers)
	e.POST("/reproduce", s.startReproducePage)

	// JSON API.
	e.GET("/api/strategies", s.apiStrategies)
	e.GET("/api/workloads", s.apiListWorkloads)
	e.POST("/api/workloads", s.apiUpload)
	e.POST("/api/workloads/generate", s.apiGenerate)
	e.GET("/api/workloads/:id", s.apiGetWorkload)
	e.GET("/api/workloads/:id/data", s.apiWorkloadData)
	e.GET("/api/workloads/:id/export/:format", s.apiExport)
	e.GET("/api/runs", s.apiListRuns)
	e.POST("/api/runs", s.apiStartRun)
	e.GET("/api/runs/:id", s.apiGetRun)
	e.GET("/api/runs/:id/report", s.apiReport)
	e.POST("/api/runs/:id/cancel", s.apiCancel)
	e.DELETE("/api/runs/:id", s.apiDelete)
	e.POST("/api/reproduce/:strategy", s.apiReproduce)
	e.POST("/api/experiments", s.apiCreateExperiment)
	e.GET("/api/experiments/:id", s.apiGetExperiment)
	e.GET("/api/experiments/:id/results", s.apiExperimentResults)
	e.GET("/api/experiments/:id/:format", s.apiExperimentPivot)
	e.POST("/api/experiments/:id/cancel", s.apiCancelExperiment)
	e.POST("/api/experiments/:id/resume", s.apiResumeExperiment)
}
