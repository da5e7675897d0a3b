// schedlab page behaviour: progressive enhancement only; every page works
// without it, it just refreshes less.
(function () {
  "use strict";

  // A running run's progress bar polls the JSON API and reloads the page
  // once the run reaches a final state, so the report appears by itself.
  // A run's own page reloads too when a queued run starts, so that it
  // says when it started (and on which worker) as the server writes it,
  // in the server's time zone as "created" is: a page that only moved its
  // badge to "running" kept "started —" (issue 42).
  function watchProgress(el) {
    var id = el.getAttribute("data-run");
    var bar = el.querySelector(".progress > div");
    var note = el.querySelector("[data-testid=progress-note]");
    var status = el.querySelector("[data-testid=run-status]") || document.querySelector("[data-testid=run-status]");
    // The run page reloads on any change of status (data-reload-on-change);
    // a compare page's row only moves its badge until the run ends.
    var shown = status && el.hasAttribute("data-reload-on-change") ? status.textContent : null;
    function tick() {
      fetch("/api/runs/" + encodeURIComponent(id), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (run) {
          if (shown !== null && run.status !== shown) {
            window.location.reload();
            return;
          }
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

  // Charts: each chart element names the JSON array of its page's chart
  // options (data-chart-src, fetched once per page part) and its place in
  // it (data-chart-index). The functions of an option come as go-echarts
  // FuncOpts strings; /charts.js (window.schedlabChartFuncs) has each as
  // code, closed over the option's lookup tables (its "schedlab" key, M)
  // and the element: only those exact strings become functions.
  var chartData = {};
  var metas = new WeakMap(); // chart element -> its option's lookup tables (M)
  function hydrate(v, fns) {
    if (typeof v === "string") { return Object.prototype.hasOwnProperty.call(fns, v) ? fns[v] : v; }
    if (v && typeof v === "object") {
      var ks = Object.keys(v);
      for (var i = 0; i < ks.length; i++) { v[ks[i]] = hydrate(v[ks[i]], fns); }
    }
    return v;
  }
  function drawChart(el, option) {
    if (!option || !window.echarts || !window.schedlabChartFuncs) { return; }
    var M = option.schedlab || {};
    hydrate(option, window.schedlabChartFuncs(M, el));
    delete option.schedlab;
    metas.set(el, M); // the CSV names a Gantt's lanes, jobs and kinds from it
    var c = echarts.getInstanceByDom(el) || echarts.init(el);
    c.setOption(option);
    if (typeof M.init === "function") { M.init(c); }
  }
  function drawCharts(root) {
    root.querySelectorAll("[data-chart-src]").forEach(function (el) {
      var src = el.getAttribute("data-chart-src");
      if (!chartData[src]) {
        chartData[src] = fetch(src, { headers: { Accept: "application/json" } })
          .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); });
      }
      // Each chart parses its own copy: drawing changes the option.
      chartData[src].then(function (text) { drawChart(el, JSON.parse(text)[+el.getAttribute("data-chart-index")]); },
        function () { el.textContent = "This chart could not be loaded: reload the page."; });
    });
  }
  window.addEventListener("resize", function () {
    if (!window.echarts) { return; }
    document.querySelectorAll("[data-chart-src]").forEach(function (el) {
      var c = echarts.getInstanceByDom(el);
      if (c) { c.resize(); }
    });
  });

  // swapLive puts the parts of a fetched fragment in place of the page's
  // parts with the same data-live-part: the ECharts instances of the old
  // part are disposed, the new part's charts drawn, its selects submit on
  // change again.
  function swapLive(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    tpl.content.querySelectorAll("[data-live-part]").forEach(function (part) {
      var old = document.querySelector("[data-live-part=" + part.getAttribute("data-live-part") + "]");
      if (!old) { return; }
      if (window.echarts) {
        old.querySelectorAll("[data-kind]").forEach(function (el) {
          var c = echarts.getInstanceByDom(el);
          if (c) { c.dispose(); }
        });
      }
      old.replaceWith(part);
      drawCharts(part);
      part.querySelectorAll("select[data-autosubmit]").forEach(autoSubmit);
      part.querySelectorAll("form[data-confirm]").forEach(confirmFirst);
    });
  }

  // A running experiment's page fills in as its runs end: it follows the
  // counts through the JSON API and, when they change, fetches the parts
  // its runs change (/experiments/:id/live, with the page's own choices)
  // and swaps them in; no reload. It stops once the experiment has ended
  // and its last results are in.
  // A running adversarial search's page fetches its parts
  // (/adversary/:id/live) every second and swaps them in, until the
  // search has ended (the part's data-status).
  function liveSearch(el) {
    var id = el.getAttribute("data-search");
    function tick() {
      fetch("/adversary/" + encodeURIComponent(id) + "/live", { headers: { Accept: "text/html" } })
        .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
        .then(function (html) {
          swapLive(html);
          var part = document.querySelector("[data-live-part=search]");
          part.querySelectorAll("[data-testid=highlight-moved]").forEach(highlightMoved);
          if (part.getAttribute("data-status") === "running") { setTimeout(tick, 1000); }
        })
        .catch(function () { setTimeout(tick, 2000); });
    }
    setTimeout(tick, 1000);
  }

  function liveExperiment(el) {
    var id = el.getAttribute("data-experiment");
    var seen = "";
    var busy = false;
    function refresh(last) {
      busy = true;
      return fetch("/experiments/" + encodeURIComponent(id) + "/live" + window.location.search, { headers: { Accept: "text/html" } })
        .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.text(); })
        .then(function (html) { swapLive(html); busy = false; })
        .catch(function () { busy = false; seen = ""; if (last) { throw new Error("last refresh failed"); } });
    }
    function tick() {
      fetch("/api/experiments/" + encodeURIComponent(id), { headers: { Accept: "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (e) {
          var bar = document.querySelector("[data-experiment=\"" + id + "\"] .progress > div");
          var text = document.querySelector("[data-testid=experiment-progress]");
          var pct = e.runs_total > 0 ? Math.round(100 * (e.runs_done + e.runs_failed) / e.runs_total) : 0;
          if (bar) { bar.style.width = pct + "%"; }
          if (text) { text.textContent = e.runs_done + " done, " + e.runs_failed + " failed, of " + e.runs_total; }
          var now = e.status + " " + e.runs_done + " " + e.runs_failed;
          var running = e.status === "running";
          if (now !== seen && !busy) {
            seen = now;
            refresh(!running).then(function () { if (running) { setTimeout(tick, 1000); } }, function () { setTimeout(tick, 2000); });
            return;
          }
          if (running || busy) { setTimeout(tick, 1000); }
        })
        .catch(function () { setTimeout(tick, 2000); });
    }
    tick();
  }

  // The sweep form (/experiments/new) as the user types: the parameters
  // of the ticked variants and the chosen preset shown (the others hidden
  // and disabled, so not posted); the run count, the time estimate and
  // the definition as JSON beside it, downloadable (a data: link, so the
  // file is exactly the text shown), all from the server
  // (POST /experiments/preview, handlers/sweepform.go), which reads the
  // fields as the form's POST does. data-previewed counts the previews
  // shown.
  function sweepForm(form) {
    var pre = document.querySelector("[data-testid=sweep-json]");
    var countEl = form.querySelector("[data-testid=experiment-count]");
    var allVariants = (form.getAttribute("data-variant-names") || "").split(" ").filter(Boolean);
    var link = document.createElement("a");
    link.className = "button secondary";
    link.setAttribute("data-testid", "sweep-json-download");
    link.textContent = "Download JSON";
    if (pre) { pre.parentNode.appendChild(link); }
    var asked = 0, shown = 0;

    function show(el, on) {
      el.hidden = !on;
      el.querySelectorAll("input, select").forEach(function (f) { f.disabled = !on; });
    }
    function render(p) {
      if (pre) { pre.textContent = p.definition; }
      var name = (form.elements.namedItem("name").value.replace(/[^A-Za-z0-9_.]+/g, "-").replace(/^-+|-+$/g, "") || "experiment");
      link.href = "data:application/json;charset=utf-8," + encodeURIComponent(p.definition + "\n");
      link.download = name + ".json";
      form.querySelectorAll(".invalid-live").forEach(function (f) { f.classList.remove("invalid-live"); });
      p.problems.forEach(function (e) {
        var f = form.elements.namedItem(e.field);
        if (f && f.classList) { f.classList.add("invalid-live"); }
      });
      if (!countEl) { return; }
      countEl.textContent = "";
      if (!p.counted) {
        countEl.textContent = "Not counted: " + p.problems.map(function (e) { return e.field + ": " + e.message; }).join("; ") + ".";
        return;
      }
      var strong = document.createElement("strong");
      strong.textContent = String(p.count);
      countEl.appendChild(strong);
      countEl.appendChild(document.createTextNode(p.count === 1 ? " run. " : " runs. "));
      var est = document.createElement("span");
      est.setAttribute("data-testid", "sweep-estimate");
      est.textContent = p.estimate;
      countEl.appendChild(est);
    }
    function preview() {
      var n = ++asked;
      fetch("/experiments/preview", { method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin",
        headers: { "Accept": "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (p) {
          if (p && n === asked) {
            render(p);
            form.setAttribute("data-previewed", String(++shown));
          }
        })
        .catch(function () {});
    }
    function update() {
      var ticked = Array.prototype.filter.call(form.querySelectorAll("input[name=variants]"), function (c) { return c.checked; })
        .map(function (c) { return c.value; });
      var variants = ticked.length ? ticked : allVariants;
      var kindEl = form.querySelector("input[name=workload_kind]:checked");
      var kind = kindEl ? kindEl.value : "ids";
      form.querySelectorAll("[data-workload-kind]").forEach(function (el) { show(el, el.getAttribute("data-workload-kind") === kind); });
      var presetEl = form.elements.namedItem("preset");
      var preset = presetEl ? presetEl.value : "";
      if (kind === "preset") {
        form.querySelectorAll("[data-preset]").forEach(function (el) { show(el, el.getAttribute("data-preset") === preset); });
      }
      form.querySelectorAll("fieldset[data-testid=sweep-params] [data-variants]").forEach(function (el) {
        var vs = el.getAttribute("data-variants").split(" ").filter(Boolean);
        show(el, vs.length === 0 || vs.some(function (v) { return variants.indexOf(v) >= 0; }));
      });
      preview();
    }
    form.addEventListener("input", update);
    form.addEventListener("change", update);
    update();
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
  // ganttCSV is a Gantt's bars as a table: a data row is [lane, start,
  // end, colour, kind, label, group] of indexes into M (views/charts
  // GanttMeta), so the CSV writes the names they index, the times in the
  // chart's unit, one row per bar, as the table CSVs do; "moved" only on
  // a compare panel, which has it.
  function ganttCSV(o, M) {
    var se = (o.series || [])[0] || {};
    // "time since the first submission (h)" names the times "(h since the
    // first submission)": a CSV read alone keeps their origin.
    var axis = String((((o.xAxis || [])[0] || {}).name) || "");
    var since = /^time since (.+) \((.+)\)$/.exec(axis);
    var unit = since ? " (" + since[2] + " since " + since[1] + ")" : (M.unit ? " (" + M.unit + ")" : "");
    var head = ["lane", "job", "start" + unit, "end" + unit, "length" + (M.unit ? " (" + M.unit + ")" : ""), "kind", "group"];
    if (M.moved) { head.push("moved"); }
    var at = function (list, i) { return list && list[i] !== undefined ? list[i] : ""; };
    var rows = (se.data || []).map(function (d, i) {
      var v = d && !Array.isArray(d) && d.value ? d.value : d;
      var row = [at(M.lanes, v[0]), at(M.labels, v[5]), v[1], v[2], +(v[2] - v[1]).toPrecision(12), at(M.kinds, v[4]), at(M.groups, v[6])];
      if (M.moved) { row.push(M.moved[i] ? "yes" : "no"); }
      return row;
    });
    return [head].concat(rows);
  }
  function chartCSV(el) {
    var c = echarts.getInstanceByDom(el);
    if (!c) { return null; }
    var o = c.getOption();
    var M = metas.get(el) || {};
    if (el.getAttribute("data-kind") === "gantt" && M.lanes) {
      return "# " + (el.getAttribute("data-title") || "").replace(/\n/g, " ") + "\n" + ganttCSV(o, M).map(function (r) { return r.map(csvCell).join(","); }).join("\n") + "\n";
    }
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
  window.schedlabChart = {svg: chartSVG, csv: chartCSV, draw: drawChart};
  function watchChartExports() {
    document.querySelectorAll("[data-testid=chart]").forEach(addChartExports);
    new MutationObserver(function () {
      document.querySelectorAll("[data-testid=chart]:not([data-exports])").forEach(addChartExports);
    }).observe(document.body, {childList: true, subtree: true});
  }

  document.addEventListener("DOMContentLoaded", function () {
    drawCharts(document);
    watchChartExports();
    document.querySelectorAll("[data-testid=highlight-moved]").forEach(highlightMoved);
    document.querySelectorAll("form[data-confirm]").forEach(confirmFirst);
    document.querySelectorAll("select[data-variant-select]").forEach(followVariant);
    document.querySelectorAll("[data-watch-run]").forEach(watchProgress);
    document.querySelectorAll("[data-watch-experiment]").forEach(liveExperiment);
    document.querySelectorAll("[data-watch-search]").forEach(liveSearch);
    document.querySelectorAll("form[data-sweep-form]").forEach(sweepForm);
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
