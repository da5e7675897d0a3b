// schedlab page behaviour: progressive enhancement only; every page works
// without it, it just refreshes less.
(function () {
  "use strict";

  // A running run's progress bar polls the JSON API and reloads the page
  // once the run reaches a final state, so the report appears by itself.
  function watchProgress(el) {
    var id = el.getAttribute("data-run");
    var bar = el.querySelector(".progress > div");
    var note = el.querySelector("[data-testid=progress-note]");
    var status = el.querySelector("[data-testid=run-status]") || document.querySelector("[data-testid=run-status]");
    function tick() {
      fetch("/api/runs/" + encodeURIComponent(id), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (run) {
          var pct = run.progress_total > 0 ? Math.round(100 * run.progress_done / run.progress_total) : 0;
          if (bar) { bar.style.width = pct + "%"; }
          if (note) { note.textContent = (run.progress_note || "") + (run.progress_total > 0 ? " (" + pct + "%)" : ""); }
          if (status) { status.textContent = run.status; status.className = "badge " + run.status; }
          if (run.status === "queued" || run.status === "running") {
            setTimeout(tick, 500);
          } else {
            window.location.reload();
          }
        })
        .catch(function () { setTimeout(tick, 2000); });
    }
    tick();
  }

  // A running experiment's progress follows the JSON API; the page reloads
  // once every run has ended, so the results appear by themselves.
  function watchExperiment(el) {
    var id = el.getAttribute("data-experiment");
    var bar = el.querySelector(".progress > div");
    var text = document.querySelector("[data-testid=experiment-progress]");
    function tick() {
      fetch("/api/experiments/" + encodeURIComponent(id), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (e) {
          var pct = e.runs_total > 0 ? Math.round(100 * (e.runs_done + e.runs_failed) / e.runs_total) : 0;
          if (bar) { bar.style.width = pct + "%"; }
          if (text) { text.textContent = e.runs_done + " done, " + e.runs_failed + " failed, of " + e.runs_total; }
          if (e.status === "running") { setTimeout(tick, 1000); } else { window.location.reload(); }
        })
        .catch(function () { setTimeout(tick, 2000); });
    }
    tick();
  }

  // Selects that choose what a GET form shows (strategy, workload) submit it.
  function autoSubmit(el) {
    el.addEventListener("change", function () { el.form.submit(); });
  }

  // The run form shows the parameters of the chosen variant only: the
  // others are hidden and disabled, so they are not sent.
  // A parameter may also apply to some workload formats only
  // (data-formats; the workload options carry data-format).
  function followVariant(sel) {
    var wl = sel.form.querySelector("select[name=workload_id]");
    function format() {
      var o = wl && wl.selectedOptions[0];
      return o ? (o.getAttribute("data-format") || "") : "";
    }
    function apply() {
      var f = format();
      sel.form.querySelectorAll("[data-variants]").forEach(function (el) {
        var vs = el.getAttribute("data-variants").split(" ").filter(Boolean);
        var fs = (el.getAttribute("data-formats") || "").split(" ").filter(Boolean);
        var on = (vs.length === 0 || vs.indexOf(sel.value) >= 0) && (fs.length === 0 || f === "" || fs.indexOf(f) >= 0);
        el.hidden = !on;
        el.querySelectorAll("input, select").forEach(function (x) { x.disabled = !on; });
      });
    }
    sel.addEventListener("change", apply);
    if (wl) { wl.addEventListener("change", apply); }
    apply();
  }

  // Forms that destroy something (delete) ask first; without JavaScript
  // they post as they are.
  function confirmFirst(form) {
    form.addEventListener("submit", function (ev) {
      if (!window.confirm(form.getAttribute("data-confirm"))) { ev.preventDefault(); }
    });
  }

  // On the compare page, a toggle marks each Gantt panel of its group with
  // data-highlight="moved" (the chart's renderItem then outlines the bars
  // that moved against the first panel and fades the others) and redraws.
  function highlightMoved(box) {
    var group = box.closest(".gantt-panels");
    box.addEventListener("change", function () {
      group.querySelectorAll("[data-kind=gantt]").forEach(function (el) {
        if (box.checked) { el.setAttribute("data-highlight", "moved"); } else { el.removeAttribute("data-highlight"); }
        var c = window.echarts && echarts.getInstanceByDom(el);
        if (c) { c.setOption({series: [{data: c.getOption().series[0].data}]}); }
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-testid=highlight-moved]").forEach(highlightMoved);
    document.querySelectorAll("form[data-confirm]").forEach(confirmFirst);
    document.querySelectorAll("select[data-variant-select]").forEach(followVariant);
    document.querySelectorAll("[data-watch-run]").forEach(watchProgress);
    document.querySelectorAll("[data-watch-experiment]").forEach(watchExperiment);
    document.querySelectorAll("select[data-autosubmit]").forEach(autoSubmit);
    var sel = document.querySelector("[data-testid=compare-selected]");
    if (sel) {
      sel.addEventListener("click", function (ev) {
        var ids = Array.prototype.map.call(document.querySelectorAll("input[name=runs]:checked"), function (c) { return c.value; });
        if (ids.length < 2) { ev.preventDefault(); alert("Select at least two runs to compare."); }
      });
    }
  });
})();
