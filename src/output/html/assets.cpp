// SPDX-License-Identifier: MIT
// The report's stylesheet and script, inlined into every page. The script renders the findings
// table from the page's JSON, sorts it by a clicked column and filters it; `#filter=...&sort=...`
// (or the same as a query) in the address applies both on load, so a view can be linked.
#include "torchmigrate/output/html.hpp"

namespace torchmigrate::output::html {

std::string_view stylesheet() {
  return R"css(
:root { --breaks: #c62828; --silent: #ef6c00; --deprecated: #b08900; --build: #1565c0; --other: #757575;
        --safe: #2e7d32; --unsafe: #d49b00; --manual: #6a1b9a; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 16px 24px;
       max-width: 1240px; color: #1f2328; background: #fff; }
h1 { font-size: 22px; margin: 4px 0; } h2 { font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px;
margin-top: 28px; } h3 { font-size: 15px; margin: 16px 0 6px; } h4 { font-size: 13px; margin: 10px 0 2px; }
.meta, .note { color: var(--muted); font-size: 12px; } .note { margin-left: 8px; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.cards { display: flex; flex-wrap: wrap; gap: 8px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; min-width: 150px; border-top-width: 4px; }
.card .num { display: block; font-size: 24px; font-weight: 600; } .card .label { color: var(--muted); font-size: 12px; }
.card.urgency-breaks { border-top-color: var(--breaks); } .card.urgency-silent { border-top-color: var(--silent); }
.card.urgency-deprecated { border-top-color: var(--deprecated); } .card.urgency-build { border-top-color: var(--build); }
.card.urgency-other { border-top-color: var(--other); } .card.fix-safe { border-top-color: var(--safe); }
.card.fix-unsafe { border-top-color: var(--unsafe); } .card.fix-manual { border-top-color: var(--manual); }
table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid var(--line); padding: 4px 6px;
text-align: left; vertical-align: top; } td.n, th.n { text-align: right; }
#findings th { cursor: pointer; user-select: none; background: #f6f8fa; position: sticky; top: 0; }
#findings th[aria-sort="ascending"]::after { content: " \25B2"; } #findings th[aria-sort="descending"]::after { content: " \25BC"; }
#findings td.file { max-width: 280px; } #findings pre { margin: 2px 0 0; color: var(--muted); white-space: pre-wrap; }
/* Paths break after a `/` (<wbr>); inside a name only when one is wider than its cell. */
#findings td.file, #findings pre, .path { overflow-wrap: anywhere; }
#projects tr.quiet summary { color: var(--muted); cursor: pointer; } #projects tr.quiet ul { margin: 4px 0; }
.tag { display: inline-block; font-size: 11px; border-radius: 10px; padding: 0 7px; color: #fff; background: var(--other);
white-space: nowrap; font-weight: normal; }
.tag.breaks { background: var(--breaks); } .tag.silent { background: var(--silent); } .tag.deprecated { background: var(--deprecated); }
.tag.build { background: var(--build); } .tag.safe { background: var(--safe); } .tag.unsafe { background: var(--unsafe); }
.tag.manual { background: var(--manual); } .tag.new { background: #0969da; }
.charts { display: grid; grid-template-columns: 1fr; gap: 12px; } figure { margin: 0; }
figcaption { font-weight: 600; margin-bottom: 2px; } svg.chart { max-width: 100%; height: auto; }
svg.chart text { font-size: 12px; fill: #1f2328; } svg.chart .value { fill: var(--muted); }
svg.chart .link { cursor: pointer; } svg.chart .link:hover .label { text-decoration: underline; }
rect.breaks { fill: var(--breaks); } rect.silent { fill: var(--silent); } rect.deprecated { fill: var(--deprecated); }
rect.build { fill: var(--build); } rect.other { fill: var(--other); } rect.safe { fill: var(--safe); }
rect.unsafe { fill: var(--unsafe); } rect.manual { fill: var(--manual); }
.controls { margin: 8px 0; } #filter { font: inherit; padding: 3px 6px; } #shown-count { margin-left: 12px; color: var(--muted); }
.rule { border: 1px solid var(--line); border-radius: 6px; padding: 4px 14px; margin: 10px 0; }
.rule:target { outline: 2px solid #0969da; } .examples { display: flex; gap: 12px; flex-wrap: wrap; }
.example { flex: 1 1 380px; min-width: 0; } .example pre { background: #f6f8fa; padding: 8px; overflow-x: auto; }
.legend span { margin-right: 12px; white-space: nowrap; }
)css";
}

std::string_view script() {
  return R"js(
(function () {
  "use strict";
  var PAGE = 500;
  var data = JSON.parse(document.getElementById("findings-data").textContent);
  var strings = data.strings;
  var urgencyOrder = Object.keys(data.urgencies);
  var rows = data.rows.map(function (r) {
    var rule = data.rules[r[0]], file = data.files[r[1]], fix = data.fixKinds[r[5]];
    return { rule: rule[0], name: rule[1], urgency: rule[2], documented: rule[3], release: rule[4], file: strings[file[0]],
             project: file[1], line: r[2], position: r[3], message: strings[r[4]], fixIndex: r[5], fix: fix[0],
             fixLabel: fix[1], source: strings[r[6]], isNew: r[7] };
  });
  var table = document.getElementById("findings");
  var body = table.tBodies[0];
  var input = document.getElementById("filter");
  var count = document.getElementById("shown-count");
  var more = document.getElementById("show-more");
  var withBaseline = table.classList.contains("with-baseline");
  var state = { terms: [], key: null, descending: false, limit: PAGE };

  function parse(text) {
    return text.trim().split(/\s+/).filter(Boolean).map(function (word) {
      var colon = word.indexOf(":");
      return { field: colon > 0 ? word.slice(0, colon).toLowerCase() : null,
               value: (colon > 0 ? word.slice(colon + 1) : word).toLowerCase(), word: word.toLowerCase() };
    });
  }
  function haystack(row) {
    return (row.rule + " " + row.name + " " + row.file + " " + row.message + " " + row.source + " " + row.fixLabel +
            " " + data.urgencies[row.urgency]).toLowerCase();
  }
  function matches(row, term) {
    var v = term.value;
    switch (term.field) {
      case "rule": return row.rule.toLowerCase() === v || row.name === v;
      case "fix": return row.fix === v || row.fixLabel === v;
      case "urgency": return row.urgency === v;
      case "release": return row.release === v;
      case "file": return row.file.toLowerCase().indexOf(v) === 0;
      case "project": return String(row.project) === v;
      case "new": return (row.isNew === 1) === (v === "yes" || v === "true" || v === "1");
    }
    if (/^tm\d{3}$/.test(term.word)) return row.rule.toLowerCase() === term.word;
    return haystack(row).indexOf(term.word) !== -1;
  }
  var keys = {
    rule: function (r) { return r.rule; },
    urgency: function (r) { return urgencyOrder.indexOf(r.urgency); },
    file: function (r) { return r.file; },
    line: function (r) { return r.line; },
    message: function (r) { return r.message; },
    fix: function (r) { return r.fixIndex; },
    "new": function (r) { return -r.isNew; }
  };
  function compare(a, b) {
    if (state.key !== null) {
      var x = keys[state.key](a), y = keys[state.key](b);
      if (x !== y) return (x < y ? -1 : 1) * (state.descending ? -1 : 1);
    }
    if (a.file !== b.file) return a.file < b.file ? -1 : 1;
    return a.line - b.line;
  }
  function cell(tr, className, child) {
    var td = document.createElement("td");
    if (className) td.className = className;
    if (typeof child === "string") td.textContent = child; else if (child) td.appendChild(child);
    tr.appendChild(td);
    return td;
  }
  function tag(className, text) {
    var span = document.createElement("span");
    span.className = "tag " + className;
    span.textContent = text;
    return span;
  }
  // A path with a <wbr> after each `/`: the cell breaks it between directories.
  function pathNode(text) {
    var fragment = document.createDocumentFragment();
    var parts = text.split("/");
    parts.forEach(function (part, i) {
      var last = i === parts.length - 1;
      fragment.appendChild(document.createTextNode(last ? part : part + "/"));
      if (!last) fragment.appendChild(document.createElement("wbr"));
    });
    return fragment;
  }
  // A message with its `code spans` as <code>; an unclosed backtick stays text.
  function messageNode(text) {
    var fragment = document.createDocumentFragment();
    var parts = text.split("`");
    if (parts.length % 2 === 0) parts.push(parts.splice(-2).join("`"));
    parts.forEach(function (part, i) {
      if (!part) return;
      var node = i % 2 ? document.createElement("code") : document.createTextNode(part);
      if (i % 2) node.textContent = part;
      fragment.appendChild(node);
    });
    return fragment;
  }
  function render() {
    var shown = rows.filter(function (row) {
      return state.terms.every(function (term) { return matches(row, term); });
    }).sort(compare);
    var fragment = document.createDocumentFragment();
    shown.slice(0, state.limit).forEach(function (row) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-rule", row.rule);
      tr.setAttribute("data-urgency", row.urgency);
      tr.setAttribute("data-fix", row.fix);
      var link = document.createElement(row.documented ? "a" : "span");
      if (row.documented) link.href = "#rule-" + row.rule;
      link.textContent = row.rule;
      link.title = row.name;
      cell(tr, "rule", link);
      cell(tr, "urgency", tag(row.urgency, data.urgencies[row.urgency]));
      cell(tr, "file", pathNode(row.file));
      cell(tr, "n", row.position);
      var message = cell(tr, "message", messageNode(row.message));
      var pre = document.createElement("pre");
      pre.textContent = row.source;
      message.appendChild(pre);
      cell(tr, "fix", tag(row.fix, row.fixLabel));
      if (withBaseline) cell(tr, "new", row.isNew === 1 ? tag("new", "new") : "");
      fragment.appendChild(tr);
    });
    body.textContent = "";
    body.appendChild(fragment);
    var visible = Math.min(shown.length, state.limit);
    count.textContent = "Showing " + visible + " of " + shown.length + " matching findings (" + rows.length + " in all)";
    count.setAttribute("data-matched", shown.length);
    count.setAttribute("data-total", rows.length);
    more.hidden = shown.length <= state.limit;
  }
  // `#filter=TEXT&sort=KEY` (or `-KEY`, descending), or the same in the query string.
  function addressParameter(name) {
    var pattern = new RegExp("(?:^|[#?&])" + name + "=([^&]*)");
    var found = pattern.exec(location.hash) || pattern.exec(location.search);
    return found ? decodeURIComponent(found[1].replace(/\+/g, " ")) : null;
  }
  function updateAddress() {
    var parts = [];
    if (input.value) parts.push("filter=" + encodeURIComponent(input.value));
    if (state.key !== null) parts.push("sort=" + (state.descending ? "-" : "") + state.key);
    if (window.history && history.replaceState) {
      try { history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname + location.search); }
      catch (e) {}
    }
  }
  function applyFilter(text, changeAddress) {
    input.value = text;
    state.terms = parse(text);
    state.limit = PAGE;
    render();
    if (changeAddress) updateAddress();
  }
  function sortBy(key, descending) {
    if (!Object.prototype.hasOwnProperty.call(keys, key)) return;
    state.key = key;
    state.descending = descending;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      if (th.getAttribute("data-key") === key) th.setAttribute("aria-sort", descending ? "descending" : "ascending");
      else th.removeAttribute("aria-sort");
    });
  }
  input.addEventListener("input", function () { applyFilter(input.value, true); });
  more.addEventListener("click", function () { state.limit += PAGE; render(); });
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    th.addEventListener("click", function () {
      var key = th.getAttribute("data-key");
      sortBy(key, state.key === key ? !state.descending : false);
      render();
      updateAddress();
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll("svg.chart .link"), function (row) {
    row.addEventListener("click", function () {
      applyFilter(row.getAttribute("data-filter"), true);
      table.scrollIntoView();
    });
  });
  window.addEventListener("hashchange", function () {
    var text = addressParameter("filter");
    if (text !== null) { applyFilter(text, false); table.scrollIntoView(); }
  });
  var sort = addressParameter("sort");
  if (sort) sortBy(sort.replace(/^-/, ""), sort.charAt(0) === "-");
  applyFilter(addressParameter("filter") || "", false);
})();
)js";
}

}  // namespace torchmigrate::output::html
