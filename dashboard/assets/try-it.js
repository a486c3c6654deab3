// Try it: one definition generated (its barcodeText, HRI and symbol, or its faults beside the
// fields), and one payload read back (the definition read, its faults marked in the data). The
// server judges and draws everything (/dashboard/data/try-it/generate and try-it/parse); the
// symbol arrives as SVG text and is shown through an <img> from a blob: URL, so none of its text
// becomes part of this page.
import { callData, cell, clearErrorSummary, guarded, showErrorSummary, startPage } from './dashboard.js';

// --- Rows of key/value pairs: the further AIs and the extension parameters.

// A list of rows, each a fieldset "<noun> N" with a key and a value field and a Remove button;
// numbered again after every change, so labels and ids stay in order.
class PairRows {
  constructor(container, noun, keyLabel, idPrefix) {
    this.container = container;
    this.noun = noun;
    this.keyLabel = keyLabel;
    this.idPrefix = idPrefix;
  }

  add(key = '', value = '') {
    const row = document.createElement('fieldset');
    row.className = 'row';
    const legend = document.createElement('legend');
    const pair = document.createElement('div');
    pair.className = 'pair';
    const keyField = this.field(this.keyLabel, key, 'key');
    const valueField = this.field('Value', value, 'value');
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'secondary';
    remove.addEventListener('click', () => {
      row.remove();
      this.number();
    });
    const error = document.createElement('p');
    error.className = 'field-error';
    error.hidden = true;
    pair.append(keyField, valueField);
    const buttons = document.createElement('p');
    buttons.className = 'buttons';
    buttons.append(remove);
    row.append(legend, pair, error, buttons);
    this.container.append(row);
    this.number();
    return row;
  }

  field(label, value, part) {
    const paragraph = document.createElement('p');
    const labelElement = document.createElement('label');
    labelElement.textContent = label;
    const input = document.createElement('input');
    input.value = value;
    input.autocomplete = 'off';
    input.spellcheck = false;
    input.dataset.part = part;
    if (part === 'key' && this.keyLabel === 'AI') {
      input.className = 'ai';
      input.inputMode = 'numeric';
    }
    paragraph.append(labelElement, input);
    return paragraph;
  }

  rows() {
    return [...this.container.children];
  }

  number() {
    this.rows().forEach((row, index) => {
      const name = `${this.noun} ${index + 1}`;
      row.querySelector('legend').textContent = name;
      for (const input of row.querySelectorAll('input')) {
        input.id = `${this.idPrefix}-${index + 1}-${input.dataset.part}`;
        input.previousElementSibling.htmlFor = input.id;
      }
      row.querySelector('.field-error').id = `${this.idPrefix}-${index + 1}-error`;
      const remove = row.querySelector('button');
      remove.replaceChildren('Remove', visuallyHidden(` ${name[0].toLowerCase()}${name.slice(1)}`));
    });
  }

  // [{key, value}] of the rows that are not empty, and the row each came from.
  pairs() {
    const pairs = [];
    for (const row of this.rows()) {
      const key = row.querySelector('[data-part="key"]').value.trim();
      const value = row.querySelector('[data-part="value"]').value;
      if (key !== '' || value !== '') pairs.push({ key, value, row });
    }
    return pairs;
  }
}

function visuallyHidden(text) {
  const span = document.createElement('span');
  span.className = 'visually-hidden';
  span.textContent = text;
  return span;
}

const aiRows = new PairRows(document.getElementById('ai-rows'), 'Further AI', 'AI', 'ai');
const parameterRows = new PairRows(document.getElementById('parameter-rows'), 'Extension parameter', 'Key',
                                   'parameter');
document.getElementById('add-ai').addEventListener('click', () => aiRows.add().querySelector('input').focus());
document.getElementById('add-parameter').addEventListener('click',
                                                          () => parameterRows.add().querySelector('input').focus());

// --- Showing a symbol.

const objectUrls = new Map(); // result region -> the blob: URL of its symbol

// A figure with the symbol as an <img> (its accessible name the symbol's label) and a link
// to save it, or the reason it is not drawn; null when there is no symbol.
function symbolFigure(region, symbol) {
  if (objectUrls.has(region)) URL.revokeObjectURL(objectUrls.get(region));
  objectUrls.delete(region);
  if (symbol === null) return null;
  const figure = document.createElement('figure');
  figure.className = 'symbol';
  if (symbol.svg === null) {
    const problem = document.createElement('p');
    problem.className = 'warning';
    problem.textContent = `No ${symbol.symbology} is drawn: ${symbol.problem}`;
    figure.append(problem);
    return figure;
  }
  const url = URL.createObjectURL(new Blob([symbol.svg], { type: 'image/svg+xml' }));
  objectUrls.set(region, url);
  const image = document.createElement('img');
  image.src = url;
  image.alt = symbol.label;
  const caption = document.createElement('figcaption');
  const save = document.createElement('a');
  save.href = url;
  save.download = symbol.symbology === 'QR Code' ? 'qr-code.svg' : 'gs1-datamatrix.svg';
  save.textContent = `Save the ${symbol.symbology} (SVG)`;
  caption.append(`${symbol.symbology}. `, save);
  figure.append(image, caption);
  return figure;
}

// A <dl class="facts"> of [term, value, asCode] rows; values that are null are left out.
function facts(rows) {
  const list = document.createElement('dl');
  list.className = 'facts';
  for (const [term, value, asCode] of rows) {
    if (value === null || value === undefined) continue;
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    if (asCode) {
      const code = document.createElement('code');
      code.textContent = value;
      dd.append(code);
    } else {
      dd.textContent = value;
    }
    list.append(dt, dd);
  }
  return list;
}

function heading(text) {
  const element = document.createElement('h3');
  element.textContent = text;
  return element;
}

function paragraph(text, className = '') {
  const element = document.createElement('p');
  element.textContent = text;
  if (className !== '') element.className = className;
  return element;
}

// --- Generate.

const generateForm = document.getElementById('generate-form');
const generateErrors = document.getElementById('generate-errors');
const generateResult = document.getElementById('generate-result');
const fixedFields = {
  primaryKey: { inputs: ['primary-key', 'primary-value'], error: 'primary-error' },
  digitalLinkStem: { inputs: ['stem'], error: 'stem-error' },
  linkType: { inputs: ['link-type'], error: 'link-type-error' },
  context: { inputs: ['context'], error: 'context-error' },
  ais: { inputs: [], error: 'ais-error' },
  extensionParameters: { inputs: [], error: 'parameters-error' },
};

function optionalText(id) {
  const value = document.getElementById(id).value.trim();
  return value === '' ? null : value;
}

// The definition in the form, as /codes takes it; rows left empty are not sent. `rows` gets the
// row of each AI and extension parameter sent, by its index in the definition.
function definitionOfForm(rows) {
  const ais = aiRows.pairs();
  const parameters = parameterRows.pairs();
  rows.ais = ais.map((pair) => pair.row);
  rows.extensionParameters = parameters.map((pair) => pair.row);
  return {
    primaryKey: { key: document.getElementById('primary-key').value.trim(),
                  value: document.getElementById('primary-value').value },
    ais: ais.map(({ key, value }) => ({ key, value })),
    extensionParameters: parameters.map(({ key, value }) => ({ key, value })),
    digitalLinkStem: optionalText('stem'),
    linkType: optionalText('link-type'),
    context: optionalText('context'),
  };
}

// Where a fault's path points in the form: its error paragraph and inputs (null: the summary only).
// "primaryKey", "ais.2", "ais.2.digitalLink", "extensionParameters.0", "digitalLinkStem", ...
function placeOf(path, rows) {
  if (path === null) return null;
  const [first, second] = path.split('.');
  if ((first === 'ais' || first === 'extensionParameters') && /^\d+$/.test(second ?? '')) {
    const row = rows[first][Number(second)];
    if (row === undefined) return null;
    return { error: row.querySelector('.field-error'), inputs: [...row.querySelectorAll('input')] };
  }
  const fixed = fixedFields[first];
  if (fixed === undefined) return null;
  return { error: document.getElementById(fixed.error), inputs: fixed.inputs.map((id) => document.getElementById(id)) };
}

// The faults: listed at the top of the form (linked to their field), and each beside its field.
function showFaults(errors, rows) {
  showErrorSummary(generateErrors, errors.map(({ path, message }) => {
    const place = placeOf(path, rows);
    if (place === null) return { message, place: null };
    // The link goes to the value, the input a fault is most often about.
    const controls = [...place.inputs].reverse();
    return { message, place: { controls, slot: place.error, describes: controls } };
  }));
}

generateForm.addEventListener('submit', (event) => {
  event.preventDefault();
  guarded(async () => {
    const rows = {};
    const answer = await callData('POST', 'try-it/generate', definitionOfForm(rows));
    clearErrorSummary(generateErrors, generateForm);
    const figure = symbolFigure(generateResult, answer.symbol);
    if (answer.code === null) {
      const count = answer.failure.errors.length;
      generateResult.replaceChildren(heading('Not generated'),
                                     paragraph(`The definition has ${count === 1 ? 'a fault' : `${count} faults`}: `
                                               + 'see the form above.'));
      showFaults(answer.failure.errors, rows);
      return;
    }
    generateResult.replaceChildren(heading('Generated'),
                                   facts([['Barcode text', answer.code.barcodeText, true],
                                          ['HRI', answer.code.hri, true]]),
                                   figure);
  });
});

// --- Read.

const scanData = document.getElementById('scan-data');
const readResult = document.getElementById('read-result');
const groupSeparator = '\u001d';
// What a person types for GS (the group separator, which a keyboard cannot type): {GS} or \x1D,
// in any case. Neither can be part of a payload: '{' and '\' are in no GS1 character set and
// not allowed in a URI.
const typedGroupSeparator = /\{GS\}|\\x1D/gi;

// A scanner in keyboard mode sends GS as Ctrl+] (on the key where a US layout has ']'), which
// a text field would drop: it becomes {GS}.
scanData.addEventListener('keydown', (event) => {
  if (event.ctrlKey && !event.altKey && !event.metaKey && event.code === 'BracketRight') {
    event.preventDefault();
    scanData.setRangeText('{GS}', scanData.selectionStart, scanData.selectionEnd, 'end');
  }
});

const formNames = { digitalLink: 'GS1 Digital Link URI', elementString: 'Element string', scannerData: 'Scanner data' };
const identifierNames = {
  ']d1': 'DataMatrix', ']d2': 'GS1 DataMatrix', ']Q1': 'QR Code', ']Q3': 'GS1 QR Code', ']C1': 'GS1-128',
  ']e0': 'GS1 DataBar', ']J1': 'GS1 DotCode',
};

// Characters of `text` (a JavaScript string) by the UTF-8 byte offsets the server counts.
function characterIndexOf(text, byteOffset) {
  let bytes = 0;
  let index = 0;
  for (const character of text) {
    if (bytes >= byteOffset) return index;
    const point = character.codePointAt(0);
    bytes += point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    index += character.length;
  }
  return index;
}

// Nodes of the data as shown: each GS, which has no glyph, as a boxed "GS" (an <abbr> titled
// "group separator").
function shown(text) {
  const nodes = [];
  text.split(groupSeparator).forEach((part, index) => {
    if (index > 0) {
      const separator = document.createElement('abbr');
      separator.className = 'gs';
      separator.title = 'group separator';
      separator.textContent = 'GS';
      nodes.push(separator);
    }
    if (part !== '') nodes.push(part);
  });
  return nodes;
}

// The data in a <code>, the characters at the fault's offset and length in a <mark> (an empty
// span as a mark between characters).
function dataWithMark(data, offset, length) {
  const code = document.createElement('code');
  code.className = 'data';
  if (offset === null || offset === undefined) {
    code.append(...shown(data));
    return code;
  }
  const start = characterIndexOf(data, offset);
  const end = characterIndexOf(data, offset + length);
  const mark = document.createElement('mark');
  if (end > start) {
    mark.append(...shown(data.slice(start, end)));
  } else {
    mark.className = 'point';
    mark.append(visuallyHidden('(here)'));
  }
  code.append(...shown(data.slice(0, start)), mark, ...shown(data.slice(end)));
  return code;
}

// The definition read, as a table of its parts: the primary key, the AIs, the extension
// parameters, link type and context.
function definitionTable(definition) {
  const table = document.createElement('table');
  table.className = 'read-ais';
  const caption = document.createElement('caption');
  caption.textContent = 'AIs read';
  const head = document.createElement('thead');
  const headRow = document.createElement('tr');
  for (const title of ['AI', 'Value', 'Part']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = title;
    headRow.append(th);
  }
  head.append(headRow);
  const body = document.createElement('tbody');
  const row = (key, value, part) => {
    const tr = document.createElement('tr');
    tr.append(cell(key, 'th'), cell(value), cell(part));
    body.append(tr);
  };
  row(definition.primaryKey.key, definition.primaryKey.value, 'primary key');
  for (const ai of definition.ais) row(ai.key, ai.value, '');
  table.append(caption, head, body);
  return table;
}

// kind: 'parsed' or 'failure'.
function readFacts(item, kind) {
  const identifier = item.symbologyIdentifier;
  const definition = item.definition;
  const parameters = definition === null ? [] : definition.extensionParameters;
  return facts([
    ['Form', item.form === null ? 'none of the forms' : formNames[item.form] ?? item.form, false],
    ['Symbology identifier', identifier === null || identifier === '' ? 'none'
      : `${identifier}${identifierNames[identifier] ? ` (${identifierNames[identifier]})` : ''}`, false],
    ['Element string', item.elementString, true],
    ['HRI', item.hri, true],
    // A payload read has a Digital Link only when it was one; a failure has none to show.
    ['Digital Link', kind === 'parsed' ? item.digitalLink ?? 'none' : null, item.digitalLink !== null],
    ['Stem', definition?.digitalLinkStem, true],
    ['Link type', definition?.linkType, true],
    ['Context', definition?.context, true],
    ['Extension parameters', parameters.length === 0 ? null
      : parameters.map((parameter) => `${parameter.key}=${parameter.value}`).join(', '), true],
  ]);
}

function faultList(errors, data) {
  const list = document.createElement('ol');
  list.className = 'faults';
  for (const error of errors) {
    const item = document.createElement('li');
    item.append(paragraph(error.message));
    if (error.offset !== null && error.offset !== undefined) {
      const where = document.createElement('p');
      where.append(error.length > 0
        ? `At characters ${error.offset + 1} to ${error.offset + error.length}: `
        : `At character ${error.offset + 1}: `, dataWithMark(data, error.offset, error.length));
      item.append(where);
    }
    list.append(item);
  }
  return list;
}

document.getElementById('read-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const data = scanData.value.replace(typedGroupSeparator, groupSeparator);
  guarded(async () => {
    const answer = await callData('POST', 'try-it/parse', { data });
    const item = answer.parsed ?? answer.failure;
    const dataLine = document.createElement('p');
    dataLine.append('Data read: ', dataWithMark(data, null, 0));
    const kind = answer.parsed !== null ? 'parsed' : 'failure';
    const parts = [heading(kind === 'parsed' ? 'Read' : 'Not read'), dataLine, readFacts(item, kind)];
    if (item.definition !== null) parts.push(definitionTable(item.definition));
    if (answer.failure !== null) {
      const title = document.createElement('h4');
      title.textContent = answer.failure.errors.length === 1 ? 'Fault' : 'Faults';
      parts.push(title, faultList(answer.failure.errors, data));
    }
    const figure = symbolFigure(readResult, answer.symbol);
    if (figure !== null) parts.push(figure);
    readResult.replaceChildren(...parts);
  });
});

await startPage();
