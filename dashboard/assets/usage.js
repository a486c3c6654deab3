// The usage chart (an SVG drawn here, no library) and the same numbers as a table.
// days: [{day: "2026-11-24", tokensIssued, codesAccepted, codesRejected}], oldest first.
import { cell, fillBody } from './dashboard.js';

const svgNamespace = 'http://www.w3.org/2000/svg';
const series = [
  { key: 'tokensIssued', label: 'Tokens issued', className: 'series-tokens' },
  { key: 'codesAccepted', label: 'Codes accepted', className: 'series-accepted' },
  { key: 'codesRejected', label: 'Codes rejected', className: 'series-rejected' },
];
// The chart is drawn at the width its container has (one SVG unit is one CSS pixel), so its text
// keeps the stylesheet's size on a phone as on a desktop, and is drawn again when that width
// changes. Below legendInRowFrom pixels the legend's three entries stand one under the other.
const margin = { top: 16, right: 16, left: 56 };
const fallbackWidth = 720;
const legendInRowFrom = 600;
const legendSpacing = 180;
const legendLine = 20;

function svgElement(name, attributes, text) {
  const element = document.createElementNS(svgNamespace, name);
  for (const [attribute, value] of Object.entries(attributes)) element.setAttribute(attribute, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

// The smallest 1, 2 or 5 times a power of ten that is at least value (at least 1).
function niceCeiling(value) {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

function widthOf(container) {
  return Math.round(container.clientWidth) || fallbackWidth;
}

function draw(container, days, title, width) {
  const legendInRow = width >= legendInRowFrom;
  const plotHeight = legendInRow ? 188 : 160;
  const plotBottom = margin.top + plotHeight;
  const legendTop = plotBottom + 40;
  const height = legendTop + (legendInRow ? 1 : series.length) * legendLine;
  const top = niceCeiling(Math.max(0, ...days.flatMap((day) => series.map((each) => day[each.key]))));
  const plotWidth = width - margin.left - margin.right;
  const x = (index) => margin.left + (days.length > 1 ? (index * plotWidth) / (days.length - 1) : plotWidth / 2);
  const y = (value) => plotBottom - (value * plotHeight) / top;

  const svg = svgElement('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'usage-svg-title',
                                  class: 'usage-chart' });
  svg.append(svgElement('title', { id: 'usage-svg-title' }, title));
  for (const fraction of [0, 0.5, 1]) {
    const value = top * fraction;
    svg.append(svgElement('line', { x1: margin.left, x2: width - margin.right, y1: y(value), y2: y(value),
                                    class: 'grid' }));
    svg.append(svgElement('text', { x: margin.left - 8, y: y(value) + 4, class: 'axis-label end' },
                          Number.isInteger(value) ? String(value) : value.toFixed(1)));
  }
  // The first, middle and last day under the axis, anchored so none is cut at the edges.
  const labelled = new Map([[0, 'start'], [Math.floor((days.length - 1) / 2), 'middle'], [days.length - 1, 'end']]);
  days.forEach((day, index) => {
    if (labelled.has(index)) {
      svg.append(svgElement('text', { x: x(index), y: plotBottom + 20, class: `axis-label ${labelled.get(index)}` },
                            day.day));
    }
  });
  // Drawn last to first, so the first series (tokens, dashed) stays visible where lines meet.
  [...series].reverse().forEach((each, reversedPosition) => {
    const position = series.length - 1 - reversedPosition;
    const points = days.map((day, index) => `${x(index)},${y(day[each.key])}`).join(' ');
    svg.append(svgElement('polyline', { points, class: `series ${each.className}` }));
    for (const [index, day] of days.entries()) {
      const point = svgElement('circle', { cx: x(index), cy: y(day[each.key]), r: 3, class: each.className });
      point.append(svgElement('title', {}, `${day.day}: ${day[each.key]} ${each.label.toLowerCase()}`));
      svg.append(point);
    }
    const legendX = margin.left + (legendInRow ? position * legendSpacing : 0);
    const legendY = legendTop + (legendInRow ? 0 : position * legendLine);
    svg.append(svgElement('rect', { x: legendX, y: legendY - 6, width: 14, height: 4, class: each.className }));
    svg.append(svgElement('text', { x: legendX + 20, y: legendY, class: 'axis-label' }, each.label));
  });
  container.replaceChildren(svg);
}

// What each container last showed, to draw it again at a new width.
const shown = new WeakMap();
const resized = new ResizeObserver((entries) => {
  for (const { target } of entries) {
    const last = shown.get(target);
    const width = widthOf(target);
    if (last !== undefined && last.width !== width) {
      last.width = width;
      draw(target, last.days, last.title, width);
    }
  }
});

export function drawUsageChart(container, days, title) {
  const width = widthOf(container);
  shown.set(container, { days, title, width });
  resized.observe(container);
  draw(container, days, title, width);
}

export function fillUsageTable(body, days) {
  const rows = [...days].reverse().map((day) => {
    const row = document.createElement('tr');
    row.append(cell(day.day, 'th'), ...series.map((each) => cell(String(day[each.key]))));
    return row;
  });
  fillBody(body, rows, 4, 'No usage recorded.');
}
