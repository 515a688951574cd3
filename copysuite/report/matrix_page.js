// The conformance matrix page's script (copysuite/report/matrix_page.py inlines it after `const MATRIX = {...};`).
// MATRIX.columns: one per release x device x execution, in order. MATRIX.rows: [entry, check, outcomes, tips]
// in entry order, where outcomes has one letter per column (p held, f failed, d diverged, s skipped, - nothing
// ran) and tips numbers the hover text (MATRIX.tips) of each cell that is not held, in order. MATRIX.evidence:
// row number -> what its spec declares (version gates, ranges, known divergences). MATRIX.symbols: letter -> the
// symbol shown (copysuite.report.matrix.SYMBOL). Names and evidence are HTML.
const FIRST = 3;   // nth-child position of the first release column: after entry and check
const AXES = ['release', 'device', 'execution'];
const boxes = [...document.querySelectorAll('input[data-axis]')];
const sheet = document.head.appendChild(document.createElement('style'));

function cellsHtml(row) {
  let t = 0;
  return [...row[2]].map(c => c === '-' ? '<td>' :
    '<td class=' + c + (c === 'p' ? '' : ' data-t=' + row[3][t++]) + '>' + MATRIX.symbols[c]).join('');
}

function tableHtml(numbers, withEvidence) {
  const head = MATRIX.columns.map((c, k) => '<th data-n="' + (FIRST + k) + '">' + c.label + '</th>').join('');
  const body = numbers.map(n => { const r = MATRIX.rows[n];
    return '<tr><td class=row>' + r[0] + '<td class=row>' + r[1] + cellsHtml(r) +
      (withEvidence ? '<td class=why>' + (MATRIX.evidence[n] || 'nothing declared') : ''); }).join('');
  return '<table class=m><thead><tr><th>entry</th><th>check</th>' + head +
    (withEvidence ? '<th>declared in the specs</th>' : '') + '</tr></thead><tbody>' + body + '</tbody></table>';
}

// A row differs between releases when two shown columns of one device and execution have different outcomes;
// it differs only between executions when it does not, but two shown columns of one release do.
function differs(row, shown, across) {
  const groups = new Map();
  for (const k of shown) {
    const c = row[2][k], col = MATRIX.columns[k];
    if (c === '-') continue;
    const key = across === 'release' ? col.device + ' ' + col.execution : col.release;
    if (!groups.has(key)) groups.set(key, new Set());
    groups.get(key).add(c);
  }
  return [...groups.values()].some(s => s.size > 1);
}

function showSections(shown) {
  const byRelease = [], byExecution = [];
  MATRIX.rows.forEach((r, n) => {
    if (differs(r, shown, 'release')) byRelease.push(n);
    else if (differs(r, shown, 'execution')) byExecution.push(n);
  });
  const all = shown.length === MATRIX.columns.length;
  for (const [id, numbers] of [['by-release', byRelease], ['by-execution', byExecution]]) {
    document.getElementById(id + '-count').textContent = numbers.length + (all ? '' : ', among the columns shown');
    document.getElementById(id).innerHTML = numbers.length ? tableHtml(numbers, true) : '<p>None.</p>';
  }
}

// Filters: unchecking a box hides every column with that release, device or execution, in every table (one
// style rule per column position), and the rows that differ are those that differ among the columns shown.
// The address keeps the choice: #release=2.13.0,2.14.1&execution=eager (a release ticks each of its NumPy groups).
function applyFilters() {
  const off = new Set(boxes.filter(b => !b.checked).map(b => b.dataset.axis + '=' + b.value));
  const hidden = MATRIX.columns.map(c => AXES.some(a => off.has(a + '=' + c[a])));
  sheet.textContent = hidden.map((h, k) => h ? 'table.m tr > :nth-child(' + (FIRST + k) + ') { display: none; }' : '')
    .filter(Boolean).join('\n');
  showSections(hidden.map((h, k) => h ? -1 : k).filter(k => k >= 0));
}

function fromAddress() {
  for (const part of decodeURIComponent(location.hash.slice(1)).split('&').filter(Boolean)) {
    const [axis, values] = part.split('=');
    const keep = new Set((values || '').split(','));
    // a release names each of its column groups too: `2.13.0` ticks `2.13.0 numpy 1` and `2.13.0 numpy 2`
    const named = v => keep.has(v) || [...keep].some(k => k && v.startsWith(k + ' '));
    boxes.filter(b => b.dataset.axis === axis).forEach(b => { b.checked = named(b.value); });
  }
  applyFilters();
}

function toAddress() {
  const parts = AXES.filter(a => boxes.some(b => b.dataset.axis === a && !b.checked)).map(a =>
    a + '=' + boxes.filter(b => b.dataset.axis === a && b.checked).map(b => b.value).join(','));
  history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname + location.search);
}

boxes.forEach(b => b.addEventListener('change', () => { applyFilters(); toAddress(); }));
window.addEventListener('hashchange', fromAddress);
fromAddress();

// Every row, folded by entry: an entry's table is built when its fold first opens.
document.querySelectorAll('details[data-rows]').forEach(d => d.addEventListener('toggle', () => {
  if (d.open && !d.querySelector('table')) {
    const [start, count] = d.dataset.rows.split(',').map(Number);
    d.insertAdjacentHTML('beforeend', tableHtml([...Array(count).keys()].map(i => start + i), false));
  }
}));

document.addEventListener('mouseover', e => {
  const td = e.target.closest && e.target.closest('td[data-t]');
  if (td && !td.title) td.title = MATRIX.tips[td.dataset.t];
});
