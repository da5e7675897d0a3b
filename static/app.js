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


  // Chart exports (issue 33): under every chart, links that download it as
  // PNG, as SVG (drawn again by ECharts' SVG renderer on an offscreen
  // element of the same size: vector, for papers) and the data behind it
  // as CSV (one row per data item of each series; the axis names head the
  // columns where a value is an x, y pair). Charts added later (pages that
  // fill in) get them too.
  function chartFileName(el) {
    return (el.getAttribute("data-title") || "chart").replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 80) || "chart";
  }
  function download(name, blob) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }
  function chartSVG(el) {
    var c = echarts.getInstanceByDom(el);
    if (!c) { return null; }
    var box = document.createElement("div");
    box.style.cssText = "position:absolute;left:-100000px;top:0;width:" + el.clientWidth + "px;height:" + el.clientHeight + "px";
    document.body.appendChild(box);
    var s = echarts.init(box, null, {renderer: "svg", width: el.clientWidth, height: el.clientHeight});
    var o = c.getOption();
    o.animation = false;
    s.setOption(o);
    var svg = s.renderToSVGString();
    s.dispose();
    box.remove();
    return svg;
  }
  function csvCell(v) {
    if (v === null || v === undefined) { return ""; }
    if (typeof v === "object") { v = JSON.stringify(v); }
    v = String(v);
    return /[",\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
  }
  function chartCSV(el) {
    var c = echarts.getInstanceByDom(el);
    if (!c) { return null; }
    var o = c.getOption();
    var x = (o.xAxis || [])[0] || {}, y = (o.yAxis || [])[0] || {};
    var cats = x.type === "category" ? (x.data || []).map(function (d) { return d && d.value !== undefined ? d.value : d; }) : null;
    var rows = [], width = 0;
    (o.series || []).forEach(function (se, si) {
      var data = se.data || (se.type === "graph" ? se.nodes : null) || [];
      data.forEach(function (d, i) {
        var v = d && typeof d === "object" && !Array.isArray(d) && "value" in d ? d.value : d;
        var name = d && typeof d === "object" && !Array.isArray(d) && d.name !== undefined ? d.name : "";
        var vals = Array.isArray(v) ? v : (cats ? [cats[i], v] : [v]);
        width = Math.max(width, vals.length);
        rows.push([se.name || ("series " + (si + 1)), name].concat(vals));
      });
    });
    var head = ["series", "name"];
    for (var k = 0; k < width; k++) {
      if (width === 2 && k === 0 && x.name) { head.push(x.name); }
      else if (width === 2 && k === 1 && y.name) { head.push(y.name); }
      else { head.push("value " + (k + 1)); }
    }
    var title = el.getAttribute("data-title") || "";
    return "# " + title.replace(/\n/g, " ") + "\n" + [head].concat(rows).map(function (r) { return r.map(csvCell).join(","); }).join("\n") + "\n";
  }
  function addChartExports(el) {
    if (el.hasAttribute("data-exports")) { return; }
    el.setAttribute("data-exports", "");
    var bar = document.createElement("p");
    bar.className = "chart-exports small";
    bar.setAttribute("data-testid", "chart-exports");
    bar.innerHTML = 'Download: <button type="button" class="link" data-testid="chart-png">PNG</button> · <button type="button" class="link" data-testid="chart-svg">SVG</button> · <button type="button" class="link" data-testid="chart-csv">CSV</button>';
    el.insertAdjacentElement("afterend", bar);
    var name = chartFileName(el);
    bar.querySelector("[data-testid=chart-png]").addEventListener("click", function () {
      var c = echarts.getInstanceByDom(el);
      if (!c) { return; }
      fetch(c.getDataURL({type: "png", pixelRatio: 2, backgroundColor: "#fff"})).then(function (r) { return r.blob(); }).then(function (b) { download(name + ".png", b); });
    });
    bar.querySelector("[data-testid=chart-svg]").addEventListener("click", function () {
      var svg = chartSVG(el);
      if (svg) { download(name + ".svg", new Blob([svg], {type: "image/svg+xml"})); }
    });
    bar.querySelector("[data-testid=chart-csv]").addEventListener("click", function () {
      var csv = chartCSV(el);
      if (csv) { download(name + ".csv", new Blob([csv], {type: "text/csv"})); }
    });
  }
  window.schedlabChart = {svg: chartSVG, csv: chartCSV};
  function watchChartExports() {
    document.querySelectorAll("[data-testid=chart]").forEach(addChartExports);
    new MutationObserver(function () {
      document.querySelectorAll("[data-testid=chart]:not([data-exports])").forEach(addChartExports);
    }).observe(document.body, {childList: true, subtree: true});
  }

  document.addEventListener("DOMContentLoaded", function () {
    watchChartExports();
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
