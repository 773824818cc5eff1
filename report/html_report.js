// The script of collwrap's HTML report (report/html_template.html): draws the summary, the
// tables, the per-rank chart and the timeline from the JSON in #report-data, which
// report/html_report.cpp writes: { report: the JSON report (share/schema/report.schema.json),
// pattern_catalog: every pattern id in catalog order, pattern_parents: the pattern each one is
// part of (by id), pattern_overlap: the overlaps between patterns in words, timeline: calls and
// messages of the selected window }.
//
// Text from the trace (file, function and host names, comments) reaches the page only through
// textContent and attribute values, never as markup. When everything is drawn, #render-status
// reads "ok" (the integration test looks for it); on an error it reads "error: ...".
/* eslint-env browser */
'use strict';

(function collwrapReport() {
  const statusElement = document.getElementById('render-status');

  function showError(message) {
    statusElement.textContent = 'error: ' + message;
    const box = document.getElementById('render-error');
    box.textContent = 'This report could not be drawn completely: ' + message;
    box.hidden = false;
  }
  window.addEventListener('error', (event) => showError(String(event.message)));

  // ---------------------------------------------------------------- DOM and SVG helpers

  const SVG_NS = 'http://www.w3.org/2000/svg';

  // el('td', {class: 'num'}, ['text', node]): attributes by setAttribute, strings as text.
  function el(tag, attributes, children) {
    return fill(document.createElement(tag), attributes, children);
  }
  function svg(tag, attributes, children) {
    return fill(document.createElementNS(SVG_NS, tag), attributes, children);
  }
  function fill(node, attributes, children) {
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value !== undefined && value !== null && value !== false) node.setAttribute(name, String(value));
    }
    for (const child of children || []) {
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === 'string' || typeof child === 'number'
        ? document.createTextNode(String(child)) : child);
    }
    return node;
  }

  // ---------------------------------------------------------------- formatting

  // Three significant digits in a unit that fits, as the terminal summary writes them.
  function formatDuration(seconds) {
    if (seconds === 0) return '0 s';
    if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '\u2013';
    const units = [[1, 's'], [1e-3, 'ms'], [1e-6, '\u00b5s'], [1e-9, 'ns']];
    const magnitude = Math.abs(seconds);
    let unit = units[3];
    for (const u of units) {
      if (magnitude >= 0.9995 * u[0]) {
        unit = u;
        break;
      }
    }
    const value = seconds / unit[0];
    const size = Math.abs(value);
    const decimals = unit === units[3] ? 0 : size >= 100 ? 0 : size >= 10 ? 1 : 2;
    return value.toFixed(decimals) + ' ' + unit[1];
  }

  function formatCount(n) {
    return typeof n === 'number' ? n.toLocaleString('en-US') : '\u2013';
  }

  function formatBytes(n) {
    if (n < 1024) return n + ' B';
    const units = ['KiB', 'MiB', 'GiB', 'TiB'];
    let value = n / 1024;
    let i = 0;
    while (value >= 1024 && i < units.length - 1) {
      value /= 1024;
      i += 1;
    }
    return value.toPrecision(3) + ' ' + units[i];
  }

  function formatPercent(part, whole) {
    return whole > 0 ? (100 * part / whole).toFixed(1) + ' %' : '\u2013';
  }

  function formatPlace(file, line) {
    if (!file) return 'unknown location';
    return line ? file + ':' + line : file;
  }

  function plural(n, word) {
    return formatCount(n) + ' ' + word + (n === 1 ? '' : 's');
  }

  // ---------------------------------------------------------------- colours

  // One colour per pattern of the catalog, so that a pattern keeps its colour in every report.
  const PATTERN_COLOURS = ['#e15759', '#f28e2b', '#b07aa1', '#edc948', '#4e79a7', '#76b7b2',
    '#59a14f', '#8cd17d', '#9c755f', '#ff9da7', '#d37295', '#79706e'];
  const USEFUL_COLOUR = '#c9d4e0';
  const CRITICAL_PATH_COLOUR = '#d62728';
  // MPI functions in the timeline: distinct colours for the first 20 names in alphabetical order.
  const FUNCTION_COLOURS = ['#4e79a7', '#a0cbe8', '#f28e2b', '#ffbe7d', '#59a14f', '#8cd17d',
    '#b6992d', '#f1ce63', '#499894', '#86bcb6', '#e15759', '#ff9d9a', '#79706e', '#bab0ac',
    '#d37295', '#fabfd2', '#b07aa1', '#d4a6c8', '#9d7660', '#d7b5a6'];

  function functionColours(names) {
    const sorted = names.slice().sort();
    return names.map((name) => FUNCTION_COLOURS[sorted.indexOf(name) % FUNCTION_COLOURS.length]);
  }

  function swatch(colour) {
    const box = el('span', { class: 'swatch' });
    box.style.background = colour;
    return box;
  }

  // ---------------------------------------------------------------- sortable tables

  function compareValues(a, b) {
    const aMissing = a === null || a === undefined;
    const bMissing = b === null || b === undefined;
    if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? -1 : 1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a).localeCompare(String(b), 'en');
  }

  // A table whose rows sort by a click on a column heading (again: the other way round).
  // spec: { id, rows, columns: [{ key, label, numeric, value(row), text(row), cell(row),
  //         title(row), className }], sortKey (null: the rows' own order), descending, limit }.
  // Numeric cells carry their exact value in data-value.
  function sortableTable(spec) {
    const limit = spec.limit || Infinity;
    let sortKey = spec.sortKey === undefined ? null : spec.sortKey;
    let descending = Boolean(spec.descending);
    let showAll = false;
    const tbody = el('tbody');
    const more = el('div', { class: 'more' });
    const headings = spec.columns.map((column) => {
      const button = el('button', { type: 'button', title: 'Sort by ' + column.label }, [column.label]);
      const th = el('th', { scope: 'col', 'data-key': column.key, class: column.numeric ? 'num' : null }, [button]);
      button.addEventListener('click', () => {
        if (sortKey === column.key) {
          descending = !descending;
        } else {
          sortKey = column.key;
          descending = Boolean(column.numeric);
        }
        draw();
      });
      return th;
    });
    const table = el('table', { id: spec.id, class: 'sortable' }, [el('thead', {}, [el('tr', {}, headings)]), tbody]);

    function cellOf(column, row) {
      const value = column.value(row);
      const content = column.cell ? column.cell(row) : column.text ? column.text(row) : value;
      return el('td', {
        'data-key': column.key,
        class: column.className || (column.numeric ? 'num' : null),
        'data-value': column.numeric && typeof value === 'number' ? String(value) : null,
        title: column.title ? column.title(row) : null,
      }, [content === null || content === undefined ? '\u2013' : content]);
    }

    function draw() {
      const order = spec.rows.map((row, i) => i);
      const column = spec.columns.find((c) => c.key === sortKey);
      if (column) {
        order.sort((a, b) => {
          const c = compareValues(column.value(spec.rows[a]), column.value(spec.rows[b]));
          return (descending ? -c : c) || a - b;
        });
      }
      for (const th of headings) {
        th.setAttribute('aria-sort', th.dataset.key === sortKey ? (descending ? 'descending' : 'ascending') : 'none');
      }
      const shown = showAll ? order : order.slice(0, limit);
      const rows = document.createDocumentFragment();
      for (const i of shown) {
        const row = spec.rows[i];
        rows.appendChild(el('tr', { 'data-index': i }, spec.columns.map((c) => cellOf(c, row))));
      }
      tbody.replaceChildren(rows);
      more.replaceChildren();
      if (shown.length < order.length) {
        const button = el('button', { type: 'button', class: 'action' }, ['Show all ' + formatCount(order.length) + ' rows']);
        button.addEventListener('click', () => {
          showAll = true;
          draw();
        });
        more.append('The first ' + formatCount(shown.length) + ' rows are shown. ', button);
      }
    }
    draw();
    return el('div', {}, [el('div', { class: 'table-wrap' }, [table]), more]);
  }

  // ---------------------------------------------------------------- sections

  function fact(list, label, value, id, exact) {
    const dd = el('dd', { id: id || null, 'data-value': exact === undefined ? null : String(exact) }, [value]);
    list.append(el('dt', {}, [label]), dd);
  }

  function renderSummary(report) {
    const trace = report.trace;
    const s = report.summary;
    const m = s.matching;
    const c = s.clock;
    const list = el('dl', { class: 'facts' });
    fact(list, 'Trace', trace.path, 'summary-trace');
    if (trace.program) fact(list, 'Program', trace.program, 'summary-program');
    fact(list, 'Ranks', formatCount(trace.world_size) + (trace.locations !== trace.world_size
      ? ' (' + plural(trace.locations, 'location') + ')' : ''), 'summary-ranks', trace.world_size);
    fact(list, 'Nodes', trace.nodes.length ? trace.nodes.join(', ') : 'not recorded', 'summary-nodes');
    fact(list, 'Duration', formatDuration(trace.duration_s), 'summary-duration', trace.duration_s);
    fact(list, 'Events', formatCount(trace.events), 'summary-events', trace.events);
    fact(list, 'Total time (all locations)', formatDuration(s.total_time_s), 'summary-total-time', s.total_time_s);
    fact(list, 'MPI time', formatDuration(s.total_mpi_time_s) + ' (' + formatPercent(s.total_mpi_time_s, s.total_time_s)
      + ' of the total time)', 'summary-mpi-time', s.total_mpi_time_s);
    fact(list, 'Findings', formatCount(s.findings), 'summary-findings', s.findings);
    fact(list, 'Instances', formatCount(s.instances) + (s.instances_below_min_wait > 0
      ? ' (' + formatCount(s.instances_below_min_wait) + ' more below --min-wait ' + formatDuration(s.options.min_wait_s)
        + ' not counted)' : ''), 'summary-instances', s.instances);
    const unmatched = [];
    if (m.unmatched_sends) unmatched.push(plural(m.unmatched_sends, 'unmatched send'));
    if (m.unmatched_receives) unmatched.push(plural(m.unmatched_receives, 'unmatched receive'));
    if (m.incomplete_collectives) unmatched.push(plural(m.incomplete_collectives, 'incomplete collective'));
    if (m.unmatched_requests) unmatched.push(plural(m.unmatched_requests, 'unmatched request'));
    if (m.mismatched_collectives) unmatched.push(plural(m.mismatched_collectives, 'mismatched collective'));
    if (m.invalid_ops) unmatched.push(plural(m.invalid_ops, 'invalid operation'));
    fact(list, 'Matched', plural(m.messages, 'message') + ', ' + plural(m.collectives, 'collective')
      + (unmatched.length ? '; ' + unmatched.join(', ') : '; nothing left unmatched'), 'summary-matching');
    fact(list, 'Clock-condition violations', formatCount(c.violations) + ' (before repair '
      + formatCount(c.violations_before_repair) + ', after repair ' + formatCount(c.violations_after_repair)
      + ')', 'summary-clock-violations', c.violations);
    fact(list, 'Largest clock repair shift', formatDuration(c.max_repair_shift_s), 'summary-clock-shift', c.max_repair_shift_s);
    fact(list, 'Clock offsets per location', 'at least ' + formatCount(c.offsets_per_location_min)
      + ', largest standard deviation ' + formatDuration(c.max_offset_stddev_s), 'summary-clock-offsets',
    c.offsets_per_location_min);
    const o = s.options;
    fact(list, 'Options', 'patterns ' + o.patterns.join(', ') + '; --min-wait ' + formatDuration(o.min_wait_s)
      + '; --eager-threshold ' + (o.eager_threshold_bytes === null ? 'per message (4096 B within a node, 65536 B between nodes)'
      : formatBytes(o.eager_threshold_bytes)) + '; --sendrecv-window ' + formatDuration(o.sendrecv_window_s), 'summary-options');
    const warnings = el('ul', { class: 'warnings', id: 'warnings' }, s.warnings.map((w) => el('li', {}, [w])));
    fact(list, 'Warnings', s.warnings.length ? warnings : 'none', 'summary-warnings', s.warnings.length);
    document.getElementById('summary-body').append(list);
    document.getElementById('trace-path').textContent = trace.path;
  }

  function segmentPlace(segment) {
    const callers = (segment.call_path || []).map((f) => formatPlace(f.file, f.line)
      + (f.function ? ' (' + f.function + ')' : ''));
    const end = formatPlace(segment.file, segment.line) + ' (' + segment.mpi_function + ')'
      + (callers.length ? ', called from ' + callers.join(' \u2190 ') : '');
    if (!segment.start_file) return 'up to ' + end;
    return formatPlace(segment.start_file, segment.start_line) + ' (' + segment.start_mpi_function + ') \u2192 ' + end;
  }

  function causedWaitsText(cause) {
    const waits = cause.caused_waits || [];
    return waits.map((w) => 'rank ' + w.rank + (w.thread ? '.' + w.thread : '') + ' at '
      + formatPlace(w.file, w.line) + ': ' + formatDuration(w.short_term_cost_s + w.long_term_cost_s)).join('\n');
  }

  function renderRootCauses(report, body) {
    const causes = report.root_causes;
    if (!causes.length) {
      body.append(el('p', { id: 'no-causes' }, ['No compute segment made another rank wait.']));
      return;
    }
    const threads = causes.some((c) => c.thread !== 0);
    body.append(sortableTable({
      id: 'causes-table',
      rows: causes,
      sortKey: null,  // the analyzer's order: by gain, then by cost
      limit: 50,
      columns: [
        { key: 'rank', label: threads ? 'Rank.thread' : 'Rank', numeric: true, value: (c) => c.rank,
          text: (c) => (threads ? c.rank + '.' + c.thread : String(c.rank)) + (c.gain_basis === 'ranks_mean' ? ' (imbalance across ranks)' : '') },
        { key: 'place', label: 'Line to change', value: (c) => (c.segment.file || '') + ':' + String(c.segment.line || 0).padStart(10, '0'),
          text: (c) => segmentPlace(c.segment), className: 'place', title: (c) => (c.segment.function ? 'in ' + c.segment.function : null) },
        { key: 'segment_time_s', label: 'Segment time', numeric: true, value: (c) => c.segment_time_s,
          text: (c) => formatDuration(c.segment_time_s), title: (c) => ({ largest_wait: 'without the waits it caused: ', ranks_mean: 'balanced across ranks: ' }[c.gain_basis] || 'other ranks\u2019 mean: ')
            + formatDuration(c.target_time_s) },
        { key: 'short_term_cost_s', label: 'Waits caused', numeric: true, value: (c) => c.short_term_cost_s,
          text: (c) => formatDuration(c.short_term_cost_s), title: causedWaitsText },
        { key: 'long_term_cost_s', label: 'Propagated', numeric: true, value: (c) => c.long_term_cost_s,
          text: (c) => formatDuration(c.long_term_cost_s) },
        { key: 'gain_s', label: 'Estimated gain', numeric: true, value: (c) => c.gain_s,
          text: (c) => (c.gain_s === null ? null : formatDuration(c.gain_s)) },
        { key: 'gain_percent', label: 'of the run', numeric: true, value: (c) => c.gain_percent,
          text: (c) => (c.gain_percent === null || c.gain_percent === undefined ? null : c.gain_percent.toFixed(1) + ' %') },
      ],
    }));
    const delay = report.delay;
    if (delay) {
      body.append(el('p', { id: 'delay-balance', class: 'hint' }, [
        'Delay analysis: ' + formatDuration(delay.attributed_s) + ' of the ' + formatDuration(delay.total_wait_s)
        + ' of waiting attributed to causes (residual ' + formatDuration(delay.residual_s) + ').']));
    }
  }

  function renderWhatIf(report, body) {
    const answers = report.what_if || [];
    if (!answers.length) return;
    body.append(el('h3', {}, ['What if']));
    body.append(sortableTable({
      id: 'what-if-table',
      rows: answers,
      columns: [
        { key: 'spec', label: 'Question', value: (w) => w.spec, className: 'place' },
        { key: 'segments_changed', label: 'Segments changed', numeric: true, value: (w) => w.segments_changed, text: (w) => formatCount(w.segments_changed) },
        { key: 'runtime_s', label: 'Run time', numeric: true, value: (w) => w.runtime_s, text: (w) => formatDuration(w.runtime_s) },
        { key: 'gain_s', label: 'Gain', numeric: true, value: (w) => w.gain_s, text: (w) => formatDuration(w.gain_s) },
        { key: 'gain_percent', label: 'of the run', numeric: true, value: (w) => w.gain_percent, text: (w) => w.gain_percent.toFixed(1) + ' %' },
      ],
    }));
  }

  function renderCriticalPath(report, body) {
    const path = report.critical_path;
    if (!path) return;
    body.append(el('h3', {}, ['Critical path']));
    const facts = el('dl', { class: 'facts', id: 'critical-path-facts' });
    fact(facts, 'Length', formatDuration(path.length_s), 'critical-path-length', path.length_s);
    fact(facts, 'Rank changes', formatCount(path.hops), 'critical-path-hops', path.hops);
    fact(facts, 'Compute on the path', formatDuration(path.compute_s) + ' (' + formatPercent(path.compute_s, path.length_s) + ')');
    fact(facts, 'MPI on the path', formatDuration(path.mpi_s) + ' (' + formatPercent(path.mpi_s, path.length_s) + ')');
    body.append(facts);
    if (!path.segments.length) return;
    body.append(el('p', { class: 'hint' }, ['Compute segments on the path; imbalance is their time on the path minus their mean time per rank: shortening a segment with a large imbalance shortens the run.']));
    body.append(sortableTable({
      id: 'critical-path-table',
      rows: path.segments,
      sortKey: 'time_s',
      descending: true,
      limit: 20,
      columns: [
        { key: 'place', label: 'Segment', value: (s) => (s.segment.file || '') + ':' + String(s.segment.line || 0).padStart(10, '0'),
          text: (s) => segmentPlace(s.segment), className: 'place' },
        { key: 'time_s', label: 'On the path', numeric: true, value: (s) => s.time_s, text: (s) => formatDuration(s.time_s) },
        { key: 'share', label: 'Share', numeric: true, value: (s) => s.share, text: (s) => (100 * s.share).toFixed(1) + ' %' },
        { key: 'mean_per_rank_s', label: 'Mean per rank', numeric: true, value: (s) => s.mean_per_rank_s, text: (s) => formatDuration(s.mean_per_rank_s) },
        { key: 'imbalance_s', label: 'Imbalance', numeric: true, value: (s) => s.imbalance_s, text: (s) => formatDuration(s.imbalance_s) },
      ],
    }));
  }

  // The POP hierarchy: parallel efficiency = load balance x communication efficiency, and
  // communication efficiency = serialization x transfer efficiency.
  function renderPop(report, body) {
    const pop = report.pop;
    if (!pop) return;
    body.append(el('h3', {}, ['POP efficiencies (' + pop.region + ')']));
    const rows = [
      ['Parallel efficiency', pop.parallel_efficiency, 0, 'load balance \u00d7 communication efficiency'],
      ['Load balance', pop.load_balance, 1, 'mean / maximum useful time'],
      ['Communication efficiency', pop.communication_efficiency, 1, 'maximum useful time / run time'],
      ['Serialization efficiency', pop.serialization_efficiency, 2, 'maximum useful time / run time on an ideal network'],
      ['Transfer efficiency', pop.transfer_efficiency, 2, 'run time on an ideal network / run time'],
    ];
    const tbody = el('tbody', {}, rows.map(([name, value, depth, formula]) => el('tr', { class: 'pop-level-' + depth }, [
      el('th', { scope: 'row', class: 'pop-name' }, ['\u2003'.repeat(depth) + name]),
      el('td', { class: 'num', 'data-value': String(value) }, [(100 * value).toFixed(1) + ' %']),
      el('td', { class: 'text' }, [formula]),
    ])));
    body.append(el('div', { class: 'table-wrap' }, [el('table', { id: 'pop-table' }, [tbody])]));
    body.append(el('p', { class: 'hint' }, ['Run time ' + formatDuration(pop.runtime_s) + ', on an ideal network '
      + formatDuration(pop.ideal_runtime_s) + '; useful (non-MPI) time per rank: mean ' + formatDuration(pop.mean_useful_s)
      + ', maximum ' + formatDuration(pop.max_useful_s) + '.']));
  }

  function renderCauses(report) {
    const body = document.getElementById('causes-body');
    if (!report.root_causes) {
      body.append(el('p', { id: 'no-causes' }, ['The root causes were not analyzed (analyzer --no-causes).']));
      return;
    }
    renderRootCauses(report, body);
    renderWhatIf(report, body);
    renderCriticalPath(report, body);
    renderPop(report, body);
  }

  function renderPatterns(report, patternColour, overlap) {
    const s = report.summary;
    const body = document.getElementById('patterns-body');
    body.append(el('p', { class: 'hint' }, ['Idle time as a share of the total time of all locations ('
      + formatDuration(s.total_time_s) + '). Patterns overlap: ' + overlap + ', so the totals are not to be added up.']));
    const table = sortableTable({
      id: 'patterns-table',
      rows: s.patterns,
      sortKey: null,
      columns: [
        { key: 'pattern', label: 'Pattern', value: (p) => p.pattern, cell: (p) => el('span', {}, [swatch(patternColour(p.pattern)), p.pattern]), className: 'nowrap' },
        { key: 'description', label: 'What waited', value: (p) => p.description, className: 'text' },
        { key: 'findings', label: 'Findings', numeric: true, value: (p) => p.findings, text: (p) => formatCount(p.findings) },
        { key: 'occurrences', label: 'Instances', numeric: true, value: (p) => p.occurrences, text: (p) => formatCount(p.occurrences) },
        { key: 'wait_time_s', label: 'Idle time', numeric: true, value: (p) => p.wait_time_s, text: (p) => formatDuration(p.wait_time_s) },
        { key: 'percent', label: '% of total time', numeric: true, value: (p) => p.percent_of_total_time, text: (p) => p.percent_of_total_time.toFixed(2) + ' %' },
      ],
    });
    for (const tr of table.querySelectorAll('tbody tr')) {
      tr.setAttribute('data-pattern', s.patterns[Number(tr.dataset.index)].pattern);
    }
    body.append(table);
  }

  function renderFindings(report, patternColour) {
    const body = document.getElementById('findings-body');
    const findings = report.findings;
    if (!findings.length) {
      body.append(el('p', { id: 'no-findings' }, ['No wait states above --min-wait were found.']));
      return;
    }
    const threads = findings.some((f) => f.thread !== 0);
    body.append(sortableTable({
      id: 'findings-table',
      rows: findings,
      sortKey: 'wait_time_s',
      descending: true,
      limit: 500,
      columns: [
        { key: 'pattern', label: 'Pattern', value: (f) => f.pattern, cell: (f) => el('span', {}, [swatch(patternColour(f.pattern)), f.pattern]), className: 'nowrap' },
        { key: 'rank', label: threads ? 'Rank.thread' : 'Rank', numeric: true, value: (f) => f.rank,
          text: (f) => (threads ? f.rank + '.' + f.thread : String(f.rank)), title: (f) => (f.node ? 'node ' + f.node : null) },
        { key: 'place', label: 'File:line', value: (f) => (f.file || '') + ':' + String(f.line || 0).padStart(10, '0'),
          text: (f) => formatPlace(f.file, f.line), className: 'place', title: (f) => (f.function ? 'in ' + f.function : null) },
        { key: 'mpi_function', label: 'MPI function', value: (f) => f.mpi_function },
        { key: 'occurrences', label: 'Occurrences', numeric: true, value: (f) => f.occurrences, text: (f) => formatCount(f.occurrences) },
        { key: 'wait_time_s', label: 'Idle time', numeric: true, value: (f) => f.wait_time_s, text: (f) => formatDuration(f.wait_time_s) },
        { key: 'max_wait_s', label: 'Max wait', numeric: true, value: (f) => f.max_wait_s, text: (f) => formatDuration(f.max_wait_s) },
        { key: 'comment', label: 'Comment', value: (f) => f.comment, className: 'text' },
        { key: 'recommendation', label: 'Recommendation', value: (f) => f.recommendation, className: 'text' },
      ],
    }));
  }

  // Round step for about `count` ticks up to `max`.
  function niceStep(max, count) {
    const raw = max / count;
    const power = Math.pow(10, Math.floor(Math.log10(raw)));
    const digit = raw / power;
    return (digit <= 1 ? 1 : digit <= 2 ? 2 : digit <= 5 ? 5 : 10) * power;
  }

  // Stacked bars: useful MPI time (MPI time minus the idle time of the ticked patterns) and the
  // idle time of each ticked pattern; a dark tick marks each rank's MPI time.
  function renderRankChart(report, patternColour, parents, overlap) {
    const body = document.getElementById('ranks-body');
    const ranks = report.ranks;
    if (!ranks.length) {
      body.append(el('p', {}, ['The trace has no ranks with MPI calls.']));
      return;
    }
    const idle = new Map(ranks.map((r) => [r.rank, new Map()]));
    for (const f of report.findings) {
      const perPattern = idle.get(f.rank);
      if (perPattern) perPattern.set(f.pattern, (perPattern.get(f.pattern) || 0) + f.wait_time_s);
    }
    const patterns = report.summary.patterns.filter((p) => p.wait_time_s > 0).map((p) => p.pattern);
    // A pattern that is part of another (its time is also the parent's) is not stacked unless asked for.
    const shown = new Set(patterns.filter((p) => !(p in parents)));
    body.append(el('p', { class: 'hint' }, ['Each bar is a rank\u2019s time in MPI: useful time (MPI time minus the idle time '
      + 'of the ticked patterns) below, idle time per pattern above it. Patterns overlap (' + overlap + '): when the '
      + 'ticked idle times add up to more than the MPI time, the bar rises above the dark mark that shows the MPI time.']));
    const legend = el('div', { class: 'legend', id: 'rank-legend' });
    legend.append(el('span', {}, [swatch(USEFUL_COLOUR), 'useful MPI time']));
    for (const p of patterns) {
      const box = el('input', { type: 'checkbox', 'data-pattern': p });
      box.checked = shown.has(p);
      box.addEventListener('change', () => {
        if (box.checked) shown.add(p); else shown.delete(p);
        draw();
      });
      legend.append(el('label', {}, [box, ' ', swatch(patternColour(p)), p]));
    }
    const chart = el('div', { class: 'chart-wrap', id: 'rank-chart' });
    body.append(legend, chart);

    function draw() {
      const bars = ranks.map((r) => {
        const segments = [];
        let idleSum = 0;
        for (const p of patterns) {
          const s = idle.get(r.rank).get(p) || 0;
          if (shown.has(p) && s > 0) {
            segments.push({ name: p, seconds: s, colour: patternColour(p) });
            idleSum += s;
          }
        }
        const useful = Math.max(0, r.mpi_time_s - idleSum);
        segments.unshift({ name: 'useful MPI time', seconds: useful, colour: USEFUL_COLOUR });
        return { rank: r, segments, top: useful + idleSum };
      });
      const max = Math.max(1e-9, ...bars.map((b) => Math.max(b.top, b.rank.mpi_time_s)));
      const step = niceStep(max, 5);
      const axisMax = Math.ceil(max / step) * step;
      const barWidth = Math.max(2, Math.min(40, Math.floor(900 / ranks.length) - 2));
      const gap = barWidth > 6 ? 2 : 0;
      const left = 64;
      const top = 10;
      const height = 240;
      const width = left + ranks.length * (barWidth + gap) + 20;
      const y = (s) => top + height - (s / axisMax) * height;
      const picture = svg('svg', { width, height: top + height + 40, role: 'img', 'aria-label': 'MPI time per rank' });
      for (let t = 0; t <= axisMax * 1.0001; t += step) {
        picture.append(svg('line', { x1: left - 4, x2: width - 10, y1: y(t), y2: y(t), stroke: '#e3e7ec' }),
          svg('text', { x: left - 6, y: y(t) + 4, 'text-anchor': 'end' }, [formatDuration(t)]));
      }
      const labelEvery = Math.max(1, Math.ceil(28 / (barWidth + gap)));
      bars.forEach((bar, i) => {
        const x = left + i * (barWidth + gap);
        let base = 0;
        const group = svg('g', { 'data-rank': bar.rank.rank });
        for (const segment of bar.segments) {
          if (segment.seconds <= 0) continue;
          const y0 = y(base + segment.seconds);
          group.append(svg('rect', { x, y: y0, width: barWidth, height: Math.max(0.5, y(base) - y0), fill: segment.colour },
            [svg('title', {}, ['rank ' + bar.rank.rank + ': ' + segment.name + ' ' + formatDuration(segment.seconds)
              + ' of ' + formatDuration(bar.rank.mpi_time_s) + ' MPI time'])]));
          base += segment.seconds;
        }
        group.append(svg('line', { x1: x - 1, x2: x + barWidth + 1, y1: y(bar.rank.mpi_time_s), y2: y(bar.rank.mpi_time_s),
          stroke: '#1d232b', 'stroke-width': 1.5 }));
        if (i % labelEvery === 0) {
          group.append(svg('text', { x: x + barWidth / 2, y: top + height + 14, 'text-anchor': 'middle' }, [String(bar.rank.rank)]));
        }
        picture.append(group);
      });
      picture.append(svg('text', { x: left, y: top + height + 32 }, ['rank']));
      chart.replaceChildren(picture);
    }
    draw();
  }

  function renderOperations(report) {
    const body = document.getElementById('operations-body');
    if (!report.operations.length) {
      body.append(el('p', {}, ['No MPI calls were recorded.']));
      return;
    }
    const size = (o) => (o.bytes_max === 0 ? 'no data' : formatBytes(o.bytes_min) + ' \u2013 ' + formatBytes(o.bytes_max));
    body.append(sortableTable({
      id: 'operations-table',
      rows: report.operations,
      sortKey: 'total_s',
      descending: true,
      limit: 200,
      columns: [
        { key: 'function', label: 'MPI function', value: (o) => o.function },
        { key: 'bytes', label: 'Bytes per call', numeric: true, value: (o) => o.bytes_min, text: size },
        { key: 'count', label: 'Calls', numeric: true, value: (o) => o.count, text: (o) => formatCount(o.count) },
        { key: 'total_s', label: 'Total', numeric: true, value: (o) => o.total_s, text: (o) => formatDuration(o.total_s) },
        { key: 'mean_s', label: 'Mean', numeric: true, value: (o) => o.mean_s, text: (o) => formatDuration(o.mean_s) },
        { key: 'min_s', label: 'Min', numeric: true, value: (o) => o.min_s, text: (o) => formatDuration(o.min_s) },
        { key: 'max_s', label: 'Max', numeric: true, value: (o) => o.max_s, text: (o) => formatDuration(o.max_s) },
        { key: 'percent', label: '% of MPI time', numeric: true, value: (o) => o.percent_of_mpi_time,
          text: (o) => o.percent_of_mpi_time.toFixed(2) + ' %' },
      ],
    }));
  }

  // ---------------------------------------------------------------- timeline

  // Index of the first element of the ascending `values` that is >= x.
  function lowerBound(values, x) {
    let lo = 0;
    let hi = values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  function lastLeave(calls) {
    let last = 0;
    for (const leave of calls.leave_ns) last = Math.max(last, leave);
    return last;
  }

  function renderTimeline(data, patternColour) {
    const body = document.getElementById('timeline-body');
    const tl = data.timeline;
    const calls = tl.calls;
    const count = calls.track.length;
    const windowStart = Math.round(tl.window.start_s * 1e9);
    let windowEnd = Math.max(windowStart + 1, Math.round(tl.window.end_s * 1e9));
    // With calls left out, the data ends with the last call kept: the picture does too.
    if (tl.calls_dropped > 0 && count > 0) {
      windowEnd = Math.min(windowEnd, Math.max(windowStart + 1, lastLeave(calls)));
    }
    body.append(el('p', { class: 'hint' }, ['Ranks as rows, MPI calls as boxes coloured by function, messages as lines '
      + 'from the start of the send to the end of the receive, the worst waits of each finding as a bar in the '
      + 'pattern\u2019s colour under the call, the critical path as a red line along the rows it runs through. '
      + 'Drag across the picture to zoom in, double-click to see the whole window, '
      + 'or type a window in seconds.']));
    const note = el('p', { class: 'note', id: 'timeline-note' });
    if (tl.calls_dropped > 0) {
      note.textContent = 'Only the first ' + formatCount(count) + ' MPI calls of the window are in this report ('
        + formatCount(tl.calls_dropped) + ' later ones are left out): run the analyzer with --time-window START:END '
        + 'or a larger --timeline-max-events to see a later part.';
    }
    if (count === 0) {
      body.append(note, el('p', { id: 'timeline-empty' }, ['No MPI call lies in the window.']));
      return;
    }

    // Calls of each track, earliest first; leaveMax[k] = latest leave of the track's first k+1
    // calls, so a binary search finds the first call that reaches into a window.
    const tracks = tl.tracks.map(() => ({ calls: [], leaveMax: [] }));
    for (let i = 0; i < count; i += 1) {
      const track = tracks[calls.track[i]];
      const previous = track.leaveMax.length ? track.leaveMax[track.leaveMax.length - 1] : -Infinity;
      track.calls.push(i);
      track.leaveMax.push(Math.max(previous, calls.leave_ns[i]));
    }
    const trackOf = new Map(tl.tracks.map((t, i) => [t.rank + '.' + t.thread, i]));
    const instances = [];
    for (const f of data.report.findings) {
      const row = trackOf.get(f.rank + '.' + f.thread);
      if (row === undefined) continue;
      for (const s of f.top_instances) {
        instances.push({ row, start: s.time_s * 1e9, end: (s.time_s + s.wait_s) * 1e9, finding: f, sample: s });
      }
    }

    const startInput = el('input', { type: 'number', step: 'any', id: 'timeline-start', 'aria-label': 'window start in seconds' });
    const endInput = el('input', { type: 'number', step: 'any', id: 'timeline-end', 'aria-label': 'window end in seconds' });
    const apply = el('button', { type: 'button' }, ['Show']);
    const whole = el('button', { type: 'button' }, ['Whole window']);
    const controls = el('div', { class: 'controls' }, [
      el('label', {}, ['From ', startInput, ' s']), el('label', {}, ['to ', endInput, ' s']), apply, whole]);
    const colours = functionColours(tl.functions);
    const legendEntries = tl.functions.map((name, i) => el('span', {}, [swatch(colours[i]), name]));
    if (tl.critical_path && tl.critical_path.track.length) {
      legendEntries.push(el('span', { id: 'timeline-critical-path' }, [swatch(CRITICAL_PATH_COLOUR), 'critical path ('
        + plural(tl.critical_path.track.length, 'piece') + ' in the window)']));
    }
    const functionLegend = el('div', { class: 'legend', id: 'timeline-legend' }, legendEntries);
    const canvas = el('canvas', { id: 'timeline-canvas' });
    const tooltip = el('div', { class: 'tooltip', hidden: true });
    const area = el('div', { class: 'timeline-area' }, [canvas, tooltip]);
    body.append(note, controls, functionLegend, area);

    const gutter = 86;
    const rowHeight = Math.max(3, Math.min(22, Math.floor(600 / tracks.length)));
    const axisHeight = 22;
    const view = { start: windowStart, end: windowEnd };
    let selection = null;  // [x0, x1] while dragging
    let plotWidth = 0;

    const xOf = (t) => gutter + ((t - view.start) / (view.end - view.start)) * plotWidth;
    const timeOf = (x) => view.start + ((x - gutter) / plotWidth) * (view.end - view.start);
    const rowTop = (row) => axisHeight + row * rowHeight;

    function setInputs() {
      startInput.value = (view.start / 1e9).toFixed(9).replace(/0+$/, '').replace(/\.$/, '');
      endInput.value = (view.end / 1e9).toFixed(9).replace(/0+$/, '').replace(/\.$/, '');
    }

    function setView(start, end) {
      const s = Math.max(windowStart, Math.min(start, end));
      const e = Math.min(windowEnd, Math.max(start, end));
      if (!(e > s)) return;
      view.start = s;
      view.end = e;
      setInputs();
      draw();
    }

    function draw() {
      const width = Math.max(400, area.clientWidth || 900);
      plotWidth = width - gutter - 10;
      const height = axisHeight + tracks.length * rowHeight + 4;
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.width = width + 'px';
      canvas.style.height = height + 'px';
      const g = canvas.getContext('2d');
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      g.clearRect(0, 0, width, height);
      g.font = '11px system-ui, sans-serif';

      // Time axis and row labels.
      const span = (view.end - view.start) / 1e9;
      const step = niceStep(span, 8);
      g.fillStyle = '#5b6573';
      g.strokeStyle = '#e3e7ec';
      g.textAlign = 'center';
      for (let t = Math.ceil(view.start / 1e9 / step) * step; t <= view.end / 1e9; t += step) {
        const x = xOf(t * 1e9);
        g.beginPath();
        g.moveTo(x, axisHeight - 4);
        g.lineTo(x, height);
        g.stroke();
        g.fillText(formatDuration(t), x, 12);
      }
      g.textAlign = 'right';
      const labelEvery = Math.max(1, Math.ceil(12 / rowHeight));
      tl.tracks.forEach((track, row) => {
        if (row % 2 === 1) {
          g.fillStyle = '#f7f9fb';
          g.fillRect(gutter, rowTop(row), plotWidth, rowHeight);
        }
        if (row % labelEvery === 0) {
          g.fillStyle = '#5b6573';
          const label = 'rank ' + track.rank + (track.thread ? '.' + track.thread : '');
          g.fillText(label, gutter - 6, rowTop(row) + Math.min(rowHeight, 14) - 3);
        }
      });

      g.save();
      g.beginPath();
      g.rect(gutter, 0, plotWidth, height);
      g.clip();
      // Calls: a box each, at least a pixel wide; boxes that fall on a pixel already drawn are
      // skipped, so a zoomed-out window of a million calls stays quick.
      const boxHeight = Math.max(2, rowHeight - (rowHeight > 8 ? 4 : 1));
      tracks.forEach((track, row) => {
        let i = lowerBound(track.leaveMax, view.start);
        let lastPixel = -1;
        const y = rowTop(row) + (rowHeight - boxHeight) / 2;
        for (; i < track.calls.length; i += 1) {
          const c = track.calls[i];
          if (calls.enter_ns[c] > view.end) break;
          const x0 = xOf(calls.enter_ns[c]);
          const x1 = xOf(calls.leave_ns[c]);
          if (x1 - x0 < 1 && Math.floor(x0) === lastPixel) continue;
          lastPixel = Math.floor(x1);
          g.fillStyle = colours[calls.function[c]];
          g.fillRect(x0, y, Math.max(1, x1 - x0), boxHeight);
        }
      });
      // Worst waits: a bar under the call, in the pattern's colour.
      for (const inst of instances) {
        if (inst.end < view.start || inst.start > view.end) continue;
        const x0 = xOf(inst.start);
        g.fillStyle = patternColour(inst.finding.pattern);
        g.fillRect(x0, rowTop(inst.row) + rowHeight - 3, Math.max(1.5, xOf(inst.end) - x0), 3);
      }
      // Messages: send start to receive end. Many lines in a zoomed-out window are drawn
      // fainter, and at most about 20 000 of them (every k-th), so that the calls stay visible.
      const messages = tl.messages;
      const visible = [];
      for (let k = 0; k < messages.from.length; k += 1) {
        const t0 = calls.enter_ns[messages.from[k]];
        const t1 = calls.leave_ns[messages.to[k]];
        if (Math.max(t0, t1) >= view.start && Math.min(t0, t1) <= view.end) visible.push(k);
      }
      const stride = Math.max(1, Math.ceil(visible.length / 20000));
      const alpha = Math.max(0.06, Math.min(0.55, 400 / visible.length));
      g.strokeStyle = 'rgba(29, 35, 43, ' + alpha + ')';
      g.lineWidth = 1;
      g.beginPath();
      for (let v = 0; v < visible.length; v += stride) {
        const from = messages.from[visible[v]];
        const to = messages.to[visible[v]];
        g.moveTo(xOf(calls.enter_ns[from]), rowTop(calls.track[from]) + rowHeight / 2);
        g.lineTo(xOf(calls.leave_ns[to]), rowTop(calls.track[to]) + rowHeight / 2);
      }
      g.stroke();
      drawCriticalPath(g);
      if (selection) {
        g.fillStyle = 'rgba(47, 93, 138, 0.18)';
        g.fillRect(Math.min(selection[0], selection[1]), 0, Math.abs(selection[1] - selection[0]), height);
      }
      g.restore();
    }

    // The critical path: a line along the top of the rows it runs through, and a vertical
    // line where it moves to another rank.
    function drawCriticalPath(g) {
      const path = tl.critical_path;
      if (!path) return;
      g.strokeStyle = CRITICAL_PATH_COLOUR;
      g.lineWidth = 2;
      g.beginPath();
      for (let k = 0; k < path.track.length; k += 1) {
        if (path.to_ns[k] < view.start || path.from_ns[k] > view.end) continue;
        const y = rowTop(path.track[k]) + 1;
        g.moveTo(xOf(path.from_ns[k]), y);
        g.lineTo(xOf(path.to_ns[k]), y);
        if (k + 1 < path.track.length) g.lineTo(xOf(path.from_ns[k + 1]), rowTop(path.track[k + 1]) + 1);
      }
      g.stroke();
    }

    // The call under the mouse, if any (within 2 pixels).
    function callAt(x, y) {
      const row = Math.floor((y - axisHeight) / rowHeight);
      if (row < 0 || row >= tracks.length || x < gutter) return null;
      const track = tracks[row];
      const slack = (2 * (view.end - view.start)) / plotWidth;
      const t = timeOf(x);
      for (let i = lowerBound(track.leaveMax, t - slack); i < track.calls.length; i += 1) {
        const c = track.calls[i];
        if (calls.enter_ns[c] > t + slack) break;
        if (calls.leave_ns[c] >= t - slack) return c;
      }
      return null;
    }

    function pointer(event) {
      const box = canvas.getBoundingClientRect();
      return [event.clientX - box.left, event.clientY - box.top];
    }

    canvas.addEventListener('mousedown', (event) => {
      const [x] = pointer(event);
      selection = [Math.max(gutter, x), Math.max(gutter, x)];
    });
    canvas.addEventListener('mousemove', (event) => {
      const [x, y] = pointer(event);
      if (selection) {
        selection[1] = Math.max(gutter, Math.min(gutter + plotWidth, x));
        tooltip.hidden = true;
        draw();
        return;
      }
      const c = callAt(x, y);
      if (c === null) {
        tooltip.hidden = true;
        return;
      }
      const track = tl.tracks[calls.track[c]];
      const site = calls.site[c] >= 0 ? tl.sites[calls.site[c]] : 'unknown location';
      tooltip.textContent = tl.functions[calls.function[c]] + '  rank ' + track.rank
        + (track.thread ? ' thread ' + track.thread : '') + (track.node ? ' (' + track.node + ')' : '') + '\n'
        + site + '\nat ' + formatDuration(calls.enter_ns[c] / 1e9) + ', for '
        + formatDuration((calls.leave_ns[c] - calls.enter_ns[c]) / 1e9);
      tooltip.hidden = false;
      tooltip.style.left = Math.min(x + 12, area.clientWidth - 260) + 'px';
      tooltip.style.top = y + 14 + 'px';
    });
    canvas.addEventListener('mouseleave', () => {
      tooltip.hidden = true;
    });
    window.addEventListener('mouseup', () => {
      if (!selection) return;
      const [x0, x1] = selection;
      selection = null;
      if (Math.abs(x1 - x0) >= 4) setView(timeOf(Math.min(x0, x1)), timeOf(Math.max(x0, x1))); else draw();
    });
    canvas.addEventListener('dblclick', () => setView(windowStart, windowEnd));
    apply.addEventListener('click', () => setView(Number(startInput.value) * 1e9, Number(endInput.value) * 1e9));
    for (const input of [startInput, endInput]) {
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') apply.click();
      });
    }
    whole.addEventListener('click', () => setView(windowStart, windowEnd));
    let resizeTimer = 0;
    window.addEventListener('resize', () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(draw, 100);
    });
    startInput.min = endInput.min = String(windowStart / 1e9);
    startInput.max = endInput.max = String(windowEnd / 1e9);
    setInputs();
    draw();
  }

  function renderFooter(report) {
    document.getElementById('footer').textContent = 'collwrap analyzer ' + report.tool_version
      + ' \u00b7 report schema ' + report.schema_version
      + ' \u00b7 the data of this page is the JSON report (analyzer --json) plus the timeline, inside the file';
  }

  // ---------------------------------------------------------------- main

  try {
    const data = JSON.parse(document.getElementById('report-data').textContent);
    const report = data.report;
    const catalog = data.pattern_catalog;
    const patternColour = (id) => {
      const i = catalog.indexOf(id);
      return PATTERN_COLOURS[(i < 0 ? catalog.length : i) % PATTERN_COLOURS.length];
    };
    renderSummary(report);
    renderCauses(report);
    renderPatterns(report, patternColour, data.pattern_overlap);
    renderFindings(report, patternColour);
    renderRankChart(report, patternColour, data.pattern_parents, data.pattern_overlap);
    renderOperations(report);
    renderTimeline(data, patternColour);
    renderFooter(report);
    statusElement.textContent = 'ok';
  } catch (error) {
    showError(error && error.message ? error.message : String(error));
    throw error;
  }
}());
