/**
 * The report's in-page script, as plain browser JavaScript text (not compiled TypeScript, so no
 * bundler helper can leak into the page). It renders one page of documents at a time from the
 * embedded JSON, which keeps a report of thousands of documents fast, and filters by a search
 * string and a status. Every document string goes through textContent, never innerHTML.
 */
export const CLIENT_SCRIPT = String.raw`
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var docs = data.docs;
  var pageSize = data.pageSize;
  var list = document.getElementById("docs");
  var search = document.getElementById("search");
  var statusFilter = document.getElementById("status-filter");
  var pageInfo = document.getElementById("page-info");
  var prev = document.getElementById("prev");
  var next = document.getElementById("next");
  var matches = docs;
  var page = 0;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function haystack(d) {
    if (d.hay === undefined) {
      d.hay = (String(d.id) + "\n" + d.segs.map(function (s) { return s[0]; }).join("") + "\n" + (d.json || "") + "\n" + (d.error || "")).toLowerCase();
    }
    return d.hay;
  }

  function renderDoc(d) {
    var card = el("article", "doc st-" + d.status);
    card.dataset.id = String(d.id);
    var head = el("header", "doc-head");
    head.appendChild(el("span", "doc-id", "id " + String(d.id)));
    head.appendChild(el("span", "badge st-" + d.status, d.status));
    card.appendChild(head);
    var body = el("div", "doc-body");
    var text = el("div", "doc-text");
    d.segs.forEach(function (s) {
      if (!s[1]) { text.appendChild(document.createTextNode(s[0])); return; }
      var m = el("mark", "hl st-" + s[1], s[0]);
      m.dataset.pointer = s[2];
      m.dataset.status = s[1];
      m.title = s[2] + " (" + s[1] + ")";
      text.appendChild(m);
    });
    body.appendChild(text);
    var side = el("div", "doc-side");
    if (d.error) side.appendChild(el("div", "error", d.error));
    if (d.json !== undefined) side.appendChild(el("pre", "json", d.json));
    if (d.fields.length) {
      var table = el("table", "fields");
      d.fields.forEach(function (f) {
        var tr = el("tr", "field st-" + f[1]);
        tr.dataset.pointer = f[0];
        tr.appendChild(el("td", "ptr", f[0] || "/"));
        tr.appendChild(el("td", "fst", f[1]));
        tr.appendChild(el("td", "val", f[2]));
        table.appendChild(tr);
      });
      side.appendChild(table);
    }
    d.issues.forEach(function (i) { side.appendChild(el("div", "issue", (i[0] || "/") + ": " + i[1])); });
    body.appendChild(side);
    card.appendChild(body);
    return card;
  }

  function render() {
    var pages = Math.max(1, Math.ceil(matches.length / pageSize));
    if (page >= pages) page = pages - 1;
    list.textContent = "";
    matches.slice(page * pageSize, (page + 1) * pageSize).forEach(function (d) { list.appendChild(renderDoc(d)); });
    pageInfo.textContent = "page " + (page + 1) + " of " + pages + " (" + matches.length + " of " + docs.length + " documents)";
    prev.disabled = page === 0;
    next.disabled = page + 1 >= pages;
  }

  function filter() {
    var q = search.value.trim().toLowerCase();
    var st = statusFilter.value;
    matches = docs.filter(function (d) {
      return (st === "all" || d.status === st) && (q === "" || haystack(d).indexOf(q) !== -1);
    });
    page = 0;
    render();
  }

  var timer;
  search.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(filter, 120); });
  statusFilter.addEventListener("change", filter);
  prev.addEventListener("click", function () { page--; render(); });
  next.addEventListener("click", function () { page++; render(); });
  render();
})();
`;
