// The spectator page (index.html): draws the table from Vedette's live JSON stream
// (docs/STREAM.md): "hello" gives the table, the sides' colours, the units' bases and the
// terrain; each "frame" the units' poses, the required tests, the events and the overlay
// description in table mm. Table mm map to the SVG with y flipped (player A at the bottom) and a
// margin of MARGIN_MM around the table; the SVG keeps its aspect ratio centred in the window.
'use strict';

const MARGIN_MM = 20;
const ON_TABLE = new Set(['seen', 'moving', 'at_rest', 'occluded']);
const params = new URLSearchParams(location.search);
const state = { hello: null, frame: null, hover: null, selected: [], events: [], eventsUpTo: -1, frames: 0, lastMessageAt: 0,
                dirty: false, connected: false };
window.vedette = state;  // for the curious (and the browser's console)

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
const fmt = (v, n = 1) => Number(v).toFixed(n);

if (params.get('transparent') === '1') [document.documentElement, document.body].forEach((e) => e.classList.add('transparent'));
if (params.get('panel') === '0' || params.get('transparent') === '1' && params.get('panel') !== '1') document.body.classList.add('no-panel');

// Table mm -> SVG user units (mm with y down).
function P(x, y) { return [x, state.hello.table.depth_mm - y]; }
function pts(list) { return list.map(([x, y]) => P(x, y).map((v) => fmt(v, 2)).join(',')).join(' '); }

// A base's corners in table mm: front-left, front-right, rear-right, rear-left.
function baseCorners(pose, base) {
  const h = pose.heading_deg * Math.PI / 180;
  const fwd = [Math.cos(h), Math.sin(h)], right = [Math.sin(h), -Math.cos(h)];
  const [ox, oy] = base.offset_mm;
  const c = [pose.x_mm + right[0] * ox + fwd[0] * oy, pose.y_mm + right[1] * ox + fwd[1] * oy];
  const at = (r, f) => [c[0] + right[0] * r + fwd[0] * f, c[1] + right[1] * r + fwd[1] * f];
  const w = base.width_mm / 2, d = base.depth_mm / 2;
  return { centre: c, fwd, corners: [at(-w, d), at(w, d), at(w, -d), at(-w, -d)], at };
}

function sideColour(side) {
  const s = state.hello.sides.find((x) => x.name === side);
  return s ? s.colour : '#cccccc';
}

function unitsOnTable() {
  if (!state.frame || !state.hello) return [];
  const specs = new Map(state.hello.units.map((u) => [u.id, u]));
  return state.frame.frame.units.filter((u) => 'x_mm' in u && ON_TABLE.has(u.state) && specs.has(u.id))
    .map((u) => ({ ...u, spec: specs.get(u.id) }));
}

function drawTable() {
  const { width_mm: w, depth_mm: d } = state.hello.table;
  $('map').setAttribute('viewBox', `${-MARGIN_MM} ${-MARGIN_MM} ${w + 2 * MARGIN_MM} ${d + 2 * MARGIN_MM}`);
  $('table-layer').innerHTML = document.body.classList.contains('transparent') ? '' :
    `<rect class="table" x="0" y="0" width="${w}" height="${d}"/>`;
  $('terrain-layer').innerHTML = state.hello.terrain.map((t) =>
    `<polygon class="terrain terrain-${esc(t.type)}" points="${pts(t.polygon_mm)}"><title>${esc(t.id)} (${esc(t.type)})</title></polygon>`).join('');
}

const STYLE_COLOURS = { zone_of_control: '#ffd24080', range: '#40c0ff', threat: '#ff4040', contact: '#ffffff',
  support: '#60ff90', test: '#ffe060', measure: '#ffff00', verdict: '#c0a0ff', illegal: '#ff2020', info: '#d0d0d0' };

function primitiveSvg(p) {
  const colour = p.colour || STYLE_COLOURS[p.style] || '#d0d0d0';
  const dash = p.dashed ? ' stroke-dasharray="4 3"' : '';
  if (p.kind === 'label') {
    const [x, y] = P(...p.points_mm[0]);
    return p.text.split('\n').map((line, i) =>
      `<text class="prim-label" x="${fmt(x, 1)}" y="${fmt(y + i * 11, 1)}" fill="${colour}">${esc(line)}</text>`).join('');
  }
  if (p.kind === 'glyph') {  // a unit's state: its word under the unit
    const [x, y] = P(...p.points_mm[0]);
    return `<text class="prim-label" x="${fmt(x, 1)}" y="${fmt(y + 14, 1)}" fill="${colour}">${esc(p.glyph)}</text>`;
  }
  if (p.kind === 'polygon')
    return `<polygon class="prim" points="${pts(p.points_mm)}" stroke="${colour}"${dash}` +
           (p.filled ? ` style="fill:${colour};fill-opacity:0.25"` : '') + '/>';
  if (p.kind === 'arrow') {
    const [a, b] = p.points_mm.map((q) => P(...q));
    const ang = Math.atan2(b[1] - a[1], b[0] - a[0]), L = 6;
    const h1 = [b[0] - L * Math.cos(ang - 0.4), b[1] - L * Math.sin(ang - 0.4)];
    const h2 = [b[0] - L * Math.cos(ang + 0.4), b[1] - L * Math.sin(ang + 0.4)];
    return `<polyline class="prim" stroke="${colour}"${dash} points="${[a, b, h1, b, h2].map((q) => q.map((v) => fmt(v, 2)).join(',')).join(' ')}"/>`;
  }
  return `<polyline class="prim" points="${pts(p.points_mm)}" stroke="${colour}"${dash}/>`;
}

// The overlay description, less what the page draws itself (bases, facing, terrain); ranges only
// for the unit under the pointer.
function drawOverlay() {
  const shapes = [], labels = [], ranges = [];
  for (const p of state.frame.overlay) {
    if (p.style === 'base' || p.style === 'facing' || p.style === 'terrain' || p.layer === 'bases' || p.layer === 'terrain') continue;
    if (p.style === 'range' || p.layer === 'ranges') {
      if (state.hover && p.unit === state.hover) ranges.push(primitiveSvg(p));
      continue;
    }
    (p.kind === 'label' || p.kind === 'glyph' ? labels : shapes).push(primitiveSvg(p));
  }
  $('overlay-layer').innerHTML = shapes.join('');
  $('range-layer').innerHTML = ranges.join('');
  return labels;
}

function drawBases(labels) {
  const out = [], names = [];
  for (const u of unitsOnTable()) {
    const colour = sideColour(u.spec.side);
    const cls = `base${u.state === 'occluded' ? ' stale' : ''}${state.selected.includes(u.id) ? ' selected' : ''}`;
    let rear = null;
    for (const b of u.spec.bases) {
      const g = baseCorners(u, b);
      out.push(`<polygon class="${cls}" data-unit="${esc(u.id)}" fill="${colour}" points="${pts(g.corners)}"/>`);
      out.push(`<polyline class="front" points="${pts([g.corners[0], g.corners[1]])}"/>`);
      const tip = g.at(0, b.depth_mm / 2 + 6), l = g.at(-4, b.depth_mm / 2 + 1), r = g.at(4, b.depth_mm / 2 + 1);
      out.push(`<polygon fill="#ffffff" points="${pts([l, tip, r])}" pointer-events="none"/>`);
      rear = g.at(0, -b.depth_mm / 2 - 8);
    }
    const [lx, ly] = P(...rear);
    names.push(`<text class="unit-label" x="${fmt(lx, 1)}" y="${fmt(ly + 4, 1)}">${esc(u.id)}</text>`);
  }
  $('base-layer').innerHTML = out.join('');
  $('label-layer').innerHTML = labels.join('') + names.join('');
}

function render() {
  state.dirty = false;
  if (!state.hello || !state.frame) return;
  drawBases(drawOverlay());
  drawDispute();
  drawPanel();
}

function scheduleRender() {
  if (!state.dirty) { state.dirty = true; requestAnimationFrame(render); }
}

// --- the dispute readout: two clicked units, the gap between their footprints ---------------

function segmentPoint(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy || 1)));
  return [a[0] + t * dx, a[1] + t * dy];
}

function inside(p, poly) {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++)
    if ((poly[i][1] > p[1]) !== (poly[j][1] > p[1]) &&
        p[0] < (poly[j][0] - poly[i][0]) * (p[1] - poly[i][1]) / (poly[j][1] - poly[i][1]) + poly[i][0]) c = !c;
  return c;
}

// The closest points of two convex polygons (0 apart when they overlap).
function closest(a, b) {
  let best = { d: Infinity, p: null, q: null };
  const consider = (p, q) => { const d = Math.hypot(p[0] - q[0], p[1] - q[1]); if (d < best.d) best = { d, p, q }; };
  for (const p of a) for (let i = 0; i < b.length; i++) consider(p, segmentPoint(p, b[i], b[(i + 1) % b.length]));
  for (const q of b) for (let i = 0; i < a.length; i++) consider(segmentPoint(q, a[i], a[(i + 1) % a.length]), q);
  if (a.some((p) => inside(p, b)) || b.some((q) => inside(q, a))) best.d = 0;
  return best;
}

function disputeResult() {
  if (state.selected.length !== 2) return null;
  const units = unitsOnTable();
  const [u, v] = state.selected.map((id) => units.find((x) => x.id === id));
  if (!u || !v) return null;
  let best = null;
  for (const bu of u.spec.bases) for (const bv of v.spec.bases) {
    const c = closest(baseCorners(u, bu).corners, baseCorners(v, bv).corners);
    if (!best || c.d < best.d) best = c;
  }
  const sigma = Math.hypot(u.sigma_mm || 0, v.sigma_mm || 0);
  return { u, v, gap: best.d, p: best.p, q: best.q, sigma, centres: Math.hypot(u.x_mm - v.x_mm, u.y_mm - v.y_mm) };
}

function drawDispute() {
  const r = disputeResult();
  if (!r) {
    $('dispute-layer').innerHTML = '';
    $('dispute').textContent = state.selected.length === 1 ? `${state.selected[0]} selected: click a second unit.` :
      'Click two units to measure between them.';
    return;
  }
  const bw = state.hello.bw_mm || 40;
  $('dispute-layer').innerHTML = `<polyline class="dispute-line" points="${pts([r.p, r.q])}"/>`;
  $('dispute').innerHTML = `<b>${esc(r.u.id)} &harr; ${esc(r.v.id)}</b><br>gap ${fmt(r.gap)} mm (${fmt(r.gap / bw, 2)} BW)` +
    ` &plusmn; ${fmt(r.sigma, 2)} mm (1&sigma;)<br>centres ${fmt(r.centres)} mm apart`;
}

// --- the panel -----------------------------------------------------------------------------

function eventText(e) {
  const who = e.unit ? `${e.unit} ` : '';
  if (e.event === 'move') {
    const verdict = e.legal === false ? `<span class="illegal">illegal: ${esc(e.illegal_reason || '')}</span>` :
      e.legal ? `legal (${esc((e.classification || []).join(', '))})` : esc(e.note || 'not judged');
    const tests = (e.tests || []).map((t) => ` &middot; test: ${esc(t.reason)} ${esc(t.odds)}`).join('');
    return `${esc(who)}moved ${fmt(e.distance_mm)} mm: ${verdict}${tests}`;
  }
  if (e.event === 'declare') return `${esc(who)}declared ${esc(e.key)} = ${esc(JSON.stringify(e.value))}`;
  if (e.event === 'group_move') return `group move of ${esc(e.units.join(', '))}`;
  return `${esc(who)}${esc(e.event.replace('_', ' '))}`;
}

function drawPanel() {
  const f = state.frame.frame;
  const seen = unitsOnTable().length;
  $('status').textContent = `${state.connected ? 'live' : 'stream ended'} · frame ${f.frame} · t ${fmt(f.t, 2)} s · ` +
    `${seen} unit(s) on the table${f.registration.ok ? '' : ' · table not registered'}`;
  $('status').classList.toggle('stale', !state.connected);
  $('tests').innerHTML = f.tests.length ? f.tests.map((t) =>
    `<li><b>${esc(t.unit)}</b> ${esc(t.kind)}: ${esc(t.reason)} <i>${esc(t.odds)}</i></li>`).join('') : '<li>none</li>';
  $('events').innerHTML = state.events.slice(-40).reverse().map((e) =>
    `<li>t ${fmt(e.t, 2)} s: ${eventText(e)}</li>`).join('');
}

// --- pointer: hover shows ranges and a card; clicks pick the dispute's units ----------------

$('map').addEventListener('mousemove', (ev) => {
  const id = ev.target.dataset ? ev.target.dataset.unit : undefined;
  const tip = $('tooltip');
  if (id !== state.hover) { state.hover = id; scheduleRender(); }
  const u = id && unitsOnTable().find((x) => x.id === id);
  if (!u) { tip.hidden = true; return; }
  tip.hidden = false;
  tip.textContent = `${u.id} (${u.spec.side}, ${u.spec.type})\n${u.state}\nx ${fmt(u.x_mm)} y ${fmt(u.y_mm)} mm, ` +
    `${fmt(u.heading_deg)}°\nσ ${fmt(u.sigma_mm, 2)} mm, ${fmt(u.sigma_deg, 2)}°`;
  tip.style.left = `${ev.offsetX + 14}px`;
  tip.style.top = `${ev.offsetY + 14}px`;
});

$('map').addEventListener('click', (ev) => {
  const id = ev.target.dataset ? ev.target.dataset.unit : undefined;
  if (!id) { state.selected = []; scheduleRender(); return; }
  state.selected = state.selected.includes(id) ? state.selected.filter((x) => x !== id) : [...state.selected.slice(-1), id];
  scheduleRender();
});

// --- the stream ----------------------------------------------------------------------------

function onMessage(text) {
  const m = JSON.parse(text);
  state.lastMessageAt = performance.now();
  if (m.stream_version !== 1) console.warn('stream version', m.stream_version, 'is newer than this page');
  if (m.type === 'hello') {
    state.hello = m;
    state.events = (m.recent_events || []).slice();  // the log so far; frames after it add to it
    state.eventsUpTo = Math.max(-1, ...state.events.map((e) => e.frame));
    drawTable();
  } else if (m.type === 'frame') {
    state.frame = m;
    state.frames += 1;
    if (m.frame.frame > state.eventsUpTo) state.events.push(...m.declarations, ...m.frame.events);
    if (state.events.length > 200) state.events.splice(0, state.events.length - 200);
    document.title = `Vedette spectator: frame ${m.frame.frame}`;
  }
  scheduleRender();
}

function connect() {
  const url = params.get('ws') || `ws://${location.host}/`;
  const ws = new WebSocket(url);
  ws.onopen = () => { state.connected = true; scheduleRender(); };
  ws.onmessage = (ev) => onMessage(ev.data);
  ws.onclose = () => {
    state.connected = false;
    if (state.frame) drawPanel(); else $('status').textContent = 'waiting for Vedette...';
    setTimeout(connect, 2000);
  };
}

connect();
