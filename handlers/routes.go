package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"schedlab/static"
)

// Routes registers every route of the application on e.
func (s *Server) Routes(e *echo.Echo) {
	e.HTTPErrorHandler = s.errorHandler
	// Order matters: headers first (every answer, errors included, carries
	// them), then the body cap before anything reads a body, then the
	// origin check, who is asking, what a change needs, and whether the
	// disk has room for it.
	e.Use(middleware.Recover(), secureHeaders, s.limitBody, crossOrigin(), s.identify, s.guard, s.refuseWhenDiskFull)

	e.GET("/static/*", echo.WrapHandler(static.Handler()))
	// Browsers ask for /favicon.ico whatever a page links: send them to the icon.
	e.GET("/favicon.ico", func(c echo.Context) error {
		return c.Redirect(http.StatusMovedPermanently, static.URL("favicon.svg"))
	})
	e.HEAD("/static/*", echo.WrapHandler(static.Handler()))
	e.GET("/healthz", s.healthz)
	e.GET("/charts.js", chartsScript)
	s.pageRoutes(e)
	s.apiRoutes(e)
}

// pageRoutes registers the HTML pages and their forms.
func (s *Server) pageRoutes(e *echo.Echo) {
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
	e.POST("/runs/:id/cancel", then(s.cancel, seeOther("/runs/:id")))
	e.POST("/runs/:id/rerun", s.rerunPage)
	e.POST("/runs/:id/delete", then(s.deleteRun, seeOther("/runs")))
	e.POST("/runs/:id/labels", then(labelsForm(s.setRunLabels), seeOther("/runs/:id")))
	e.POST("/runs/:id/all-variants", s.compareRunVariants)
	e.GET("/runs/:id/tables/:file", s.runTableFile)
	e.GET("/compare", s.comparePage)
	e.GET("/experiments", s.experimentsPage)
	e.GET("/experiments/new", s.newExperimentPage)
	e.POST("/experiments", s.startExperimentPage)
	e.POST("/experiments/preview", s.previewExperiment)
	e.POST("/experiments/import", s.importExperimentPage)
	e.GET("/experiments/:id", s.experimentPage)
	e.GET("/experiments/:id/live", s.experimentLive)
	e.POST("/experiments/:id/cancel", then(s.cancelExperiment, seeOther("/experiments/:id")))
	e.POST("/experiments/:id/resume", then(s.resumeExperiment, seeOther("/experiments/:id")))
	e.POST("/experiments/:id/labels", then(labelsForm(s.setExperimentLabels), seeOther("/experiments/:id")))
	e.GET("/experiments/:id/bundle", s.experimentBundle)
	e.GET("/reproduce", s.reproducePage)
	e.GET("/workers", s.workersPage)
	e.GET("/api/workers", s.apiWorkers)
	e.POST("/reproduce", s.startReproducePage)
	e.GET("/adversary", s.adversaryList)
	e.GET("/adversary/new", s.newAdversaryPage)
	e.POST("/adversary", s.startAdversaryPage)
	e.GET("/adversary/:id", s.adversaryPage)
	e.GET("/adversary/:id/live", s.adversaryLive)
	e.POST("/adversary/:id/cancel", then(s.cancelAdversary, seeOther("/adversary/:id")))
	e.GET("/adversary/:id/bundle", s.searchBundle)
}

// apiRoutes registers the JSON API.
func (s *Server) apiRoutes(e *echo.Echo) {
	e.GET("/api/strategies", s.apiStrategies)
	e.GET("/api/strategies/:name/example.json", s.apiExampleWorkload)
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
	e.GET("/api/runs/:id/charts", s.apiRunCharts)
	e.GET("/api/compare/charts", s.apiCompareCharts)
	e.GET("/api/charts/:key", s.apiCharts)
	e.GET("/api/runs/:id/tables/:index", s.apiTable)
	e.GET("/api/runs/:id/batsim/:file", s.apiBatsimFile)
	e.POST("/api/runs/:id/cancel", then(s.cancel, s.apiGetRun))
	e.DELETE("/api/runs/:id", then(s.deleteRun, func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }))
	e.PATCH("/api/runs/:id", s.apiPatchRun)
	e.POST("/api/reproduce/:strategy", s.apiReproduce)
	e.POST("/api/experiments", s.apiCreateExperiment)
	e.POST("/api/experiments/import", s.apiImportExperiment)
	e.GET("/api/experiments/:id", s.apiGetExperiment)
	e.PATCH("/api/experiments/:id", s.apiPatchExperiment)
	e.GET("/api/experiments/:id/results", s.apiExperimentResults)
	e.GET("/api/experiments/:id/charts", s.apiExperimentCharts)
	e.GET("/api/experiments/:id/bundle", s.experimentBundle)
	e.GET("/api/experiments/:id/:format", s.apiExperimentPivot)
	e.POST("/api/experiments/:id/cancel", then(s.cancelExperiment, s.apiGetExperiment))
	e.POST("/api/experiments/:id/resume", then(s.resumeExperiment, s.apiGetExperiment))
	e.GET("/api/adversary", s.apiListAdversary)
	e.POST("/api/adversary", s.apiStartAdversary)
	e.GET("/api/adversary/:id", s.apiGetAdversary)
	e.POST("/api/adversary/:id/cancel", then(s.cancelAdversary, s.apiGetAdversary))
	e.GET("/api/adversary/:id/bundle", s.searchBundle)
}

// then is act followed, when it succeeds, by next: a change, then the
// page or the JSON that shows it.
func then(act, next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := act(c); err != nil {
			return err
		}
		return next(c)
	}
}

// seeOther redirects to path (303), its ":id" the request's.
func seeOther(path string) echo.HandlerFunc {
	return func(c echo.Context) error {
		return c.Redirect(http.StatusSeeOther, strings.Replace(path, ":id", c.Param("id"), 1))
	}
}
