/**
 * The page's CSS and JS. Both are inline and allowed by their hashes in the page's Content-Security-Policy; the CSS
 * carries one hiding rule per filter, so a filter is one class toggled on <main> however many findings there are.
 */
export function pageStyle(validators: readonly string[], severities: readonly string[]): string {
  const hiding = [
    ...validators.map((name) => `main.hide-v-${name} tr[data-v="${name}"]`),
    ...severities.map((name) => `main.hide-s-${name} tr[data-s="${name}"]`),
  ];
  return `${BASE_STYLE}${hiding.length > 0 ? `${hiding.join(',')}{display:none}` : ''}`;
}

const BASE_STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--head:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--ok:#3fb950;--bad:#f85149;--warn:#d29922;--head:#151b23}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:1200px;margin:0 auto;padding:16px 24px}
h1{font-size:22px;margin:8px 0}h2{font-size:17px;margin:24px 0 8px}
.verdict{font-size:14px;padding:2px 10px;border-radius:12px;color:#fff;vertical-align:middle}
.verdict.passed{background:var(--ok)}.verdict.failed{background:var(--bad)}.verdict.interrupted{background:var(--warn)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0}.facts dt{color:var(--muted)}.facts dd{margin:0;font-family:ui-monospace,monospace}
.notes li{color:var(--warn)}
table{border-collapse:collapse;width:100%}
table.findings{table-layout:fixed}table.findings th:nth-child(1){width:90px}table.findings th:nth-child(2){width:24%}table.findings th:nth-child(4){width:16%}
section.tool{content-visibility:auto;contain-intrinsic-size:auto 600px}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
thead th{background:var(--head)}td.num{text-align:right;font-variant-numeric:tabular-nums}
.status.ok{color:var(--ok)}.status.warn{color:var(--warn)}.status.bad{color:var(--bad);font-weight:600}
.sev{font-weight:600;text-transform:uppercase;font-size:12px}.sev.critical,.sev.high{color:var(--bad)}.sev.medium{color:var(--warn)}.sev.low,.sev.info{color:var(--muted)}
.where,.rule{font-family:ui-monospace,monospace;font-size:12px;word-break:break-all}
tr.is-waived td{opacity:.6}.waived{margin-left:8px;font-size:12px;color:var(--muted)}
pre{white-space:pre-wrap;word-break:break-word;background:var(--head);padding:8px;margin:4px 0;font-size:12px}
.timeline{width:100%;max-height:400px}.timeline text{fill:var(--fg);font-size:12px}.timeline rect.ok{fill:var(--ok)}.timeline rect.bad{fill:var(--bad)}.timeline rect.warn{fill:var(--warn)}
fieldset{display:inline-block;border:1px solid var(--line);margin:0 8px 8px 0}label{margin-right:12px;white-space:nowrap}
.shown{color:var(--muted)}
.summary{border:1px solid var(--line);padding:4px 16px 8px;margin:16px 0}.summary ul.blocks{margin:0 0 8px}.summary .name{font-family:ui-monospace,monospace}
.next{font-size:15px}.hint{color:var(--muted)}code{font-family:ui-monospace,monospace;font-size:12px}
.fid{font-size:12px;color:var(--muted);margin-top:4px}.waive{margin:4px 0}.waive code.cmd{user-select:all;background:var(--head);padding:2px 6px;border:1px solid var(--line)}
button.copy{font-size:12px;padding:0 6px;cursor:pointer}
ul.files{list-style:none;padding-left:0;margin:0}ul.files code{word-break:break-all}.fstatus{display:inline-block;min-width:90px;color:var(--muted);font-size:12px}
pre.code{white-space:pre;overflow-x:auto}pre.code .hit{background:rgba(207,34,46,.15);display:inline-block;min-width:100%}
`;

export const PAGE_SCRIPT = `
(function () {
  var main = document.querySelector('main');
  var rows = document.querySelectorAll('tr.finding');
  var shown = document.getElementById('shown');
  // Counted from the classes, not from layout: asking 10,000 rows where they are would lay the page out again.
  function update() {
    var shownRows = 0;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      if (!main.classList.contains('hide-v-' + row.getAttribute('data-v')) &&
          !main.classList.contains('hide-s-' + row.getAttribute('data-s'))) shownRows++;
    }
    shown.textContent = shownRows + ' of ' + rows.length + (rows.length === 1 ? ' finding' : ' findings') + ' shown';
  }
  var boxes = document.querySelectorAll('input[data-filter]');
  for (var i = 0; i < boxes.length; i++) {
    boxes[i].addEventListener('change', function (event) {
      var box = event.target;
      main.classList.toggle('hide-' + box.getAttribute('data-filter'), !box.checked);
      update();
    });
  }
  update();
  // The waive commands: a click copies one where the page may use the clipboard; the text is selectable anyway.
  var buttons = document.querySelectorAll('button.copy');
  for (var j = 0; j < buttons.length; j++) {
    buttons[j].addEventListener('click', function (event) {
      var button = event.target;
      var text = button.getAttribute('data-copy');
      if (!navigator.clipboard) return;
      navigator.clipboard.writeText(text).then(function () { button.textContent = 'Copied'; }, function () {});
    });
  }
})();
`;
