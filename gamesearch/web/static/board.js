// The gamesearch board page: plain JavaScript and SVG over the JSON API, no build step.
//
// The server keeps no game state: this page keeps the game record (every position
// reached, as the game's text, and the move that led to it) and sends the position
// with every request. Boards are drawn from the game's own description (rows,
// columns, each cell's symbol and the move a click on it plays, and any moves that
// are not cells), so a new game plugin needs no code here; LOOKS below gives
// a game a fitting drawing (discs that drop, marks, a checkered board) by its name.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";

// ------------------------------------------------------------- game looks
// How each game is drawn, keyed by the game's registry name. Every field is optional:
//   kind       "drop" (discs falling into columns, one move per column, column numbers
//              above), "marks" (drawn X and O), "discs" (round stones on a board),
//              "pieces" (a glyph per symbol) or "grid" (the symbol as text, the default)
//   winLength  (state) => how many in a row win, for drawing the winning line
//   checkered  true to shade alternate squares (draughts, chess)
//   glyphs     symbol -> what to draw instead of the symbol
//   crowned    symbol -> true for a disc drawn with a crown (a draughts king)
//   names      symbol -> what a screen reader says for it ("black king")
//   playerOf   symbol -> 0 (first player), 1 (second) or -1 (nobody); by default the
//              symbol's place in the game's player names, else the player whose name
//              starts with the symbol's letter (either case: "b" and "B" for "black")
const LOOKS = {
  connect4: { kind: "drop", winLength: () => 4 },
  tictactoe: { kind: "marks", winLength: (state) => Number(state.options.k) || 3 },
  othello: { kind: "discs" },
  checkers: {
    kind: "discs",
    checkered: true,
    crowned: (symbol) => symbol === "B" || symbol === "W",
    names: { b: "black man", B: "black king", w: "white man", W: "white king" },
  },
  chess: {
    kind: "pieces",
    checkered: true,
    glyphs: {
      K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙",
      k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟",
    },
    playerOf: (symbol) => (symbol === "" ? -1 : symbol === symbol.toUpperCase() ? 0 : 1),
  },
  kalah: { kind: "grid" },
};

function lookFor(game) {
  return { kind: "grid", checkered: false, glyphs: {}, ...(LOOKS[game] || {}) };
}

// How the trace and the set-up call the players by their turn.
const SEATS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];

// Readable searcher names for the explorer's sentences.
const SEARCHER_NAMES = {
  minimax: "Minimax",
  alphabeta: "Alpha-beta",
  iterative: "Iterative deepening",
  mtdf: "MTD(f)",
  pvs: "Principal variation search",
  solver: "The solver",
  negamax: "Negamax",
  mcts: "Monte Carlo tree search",
  maxn: "Max^n",
  paranoid: "Paranoid alpha-beta",
  brs: "Best-reply search",
};

// ------------------------------------------------------------------ state
const page = {
  catalogue: null, // GET /api/games
  record: { states: [], moves: [], index: 0, fromStart: true }, // the game record
  busy: false, // an engine move is being searched
  playing: false, // a move of the human's is on its way to the server
  generation: 0, // bumped whenever the position changes, so late answers are ignored
  analysis: null, // {position, data} of the move values shown on the board
  preview: null, // a position from the search tree shown on the board instead of the game
  drawn: null, // {shape, symbols} of the board as last drawn (for the dropping disc)
  tree: null, // the explorer's tree (see explore)
  loading: false, // the moves of a link are being replayed
  selected: null, // the cell of the piece picked for a move of two clicks (a board view's paths)
  choices: null, // the moves from the picked piece to the clicked cell, when more than one goes there
};

function current() {
  return page.record.states[page.record.index];
}

// ------------------------------------------------------------------ the API
async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error || `request failed with status ${response.status}`);
    error.type = data.type;
    throw error;
  }
  return data;
}

function positionRequest(state, extra) {
  return { game: state.game, options: state.options, position: state.position, ...extra };
}

function searcherName() {
  return $("searcher-select").value;
}

function searcherHas(option) {
  return page.catalogue.searchers[searcherName()].options.some((o) => o.name === option);
}

// Iterative deepening and MCTS answer with what they have when a budget runs out.
function answersWithinBudget() {
  return page.catalogue.searchers[searcherName()].answers_within_budget === true;
}

// The set-up's searcher and options. For a move or an analysis, a searcher that takes
// a time budget and was given no budget gets the computer's time per move.
function searchRequest(state, purpose) {
  const options = readInputs($("searcher-options"));
  const budgets = ["seconds", "simulations", "max_nodes"];
  if (purpose !== "tree" && answersWithinBudget() && !budgets.some((name) => name in options)) {
    const seconds = Number($("engine-seconds").value);
    if (seconds > 0) options.seconds = String(Math.min(seconds, page.catalogue.limits.seconds));
  }
  if (purpose === "tree" && answersWithinBudget() && searcherHas("depth") && !("max_nodes" in options)) {
    // iterative deepening: stop before the tree outgrows what the server draws
    options.max_nodes = String(page.catalogue.limits.tree_nodes);
  }
  return positionRequest(state, { searcher: searcherName(), searcher_options: options });
}

function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

// ---------------------------------------------------------------- the set-up
function optionInput(container, option, prefix) {
  const id = `${prefix}-${option.name}`;
  const row = document.createElement("p");
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = option.name;
  const input = document.createElement("input");
  input.id = id;
  input.name = option.name;
  if (option.type === "int") {
    input.type = "number";
    if (option.minimum !== null && option.minimum !== undefined) input.min = option.minimum;
    if (option.maximum !== null && option.maximum !== undefined) input.max = option.maximum;
    input.value = option.default;
  } else {
    input.type = "text";
    input.placeholder = option.default === null ? "none" : String(option.default);
  }
  input.setAttribute("aria-describedby", `${id}-help`);
  const help = document.createElement("span");
  help.id = `${id}-help`;
  help.className = "help";
  help.textContent = option.help;
  row.append(label, input, help);
  container.append(row);
}

function readInputs(container) {
  const values = {};
  for (const input of container.querySelectorAll("input")) {
    if (input.value.trim() !== "") values[input.name] = input.value.trim();
  }
  return values;
}

function fillGameOptions() {
  const fieldset = $("game-options");
  fieldset.querySelectorAll("p").forEach((row) => row.remove());
  const game = page.catalogue.games[$("game-select").value];
  for (const option of game.options) optionInput(fieldset, option, "game-option");
  fieldset.hidden = game.options.length === 0;
  const players = $("players");
  players.querySelectorAll("p").forEach((row) => row.remove());
  game.player_names.forEach((name, index) => {
    const row = document.createElement("p");
    const label = document.createElement("label");
    label.htmlFor = `player-${index}`;
    label.textContent = `${name} (moves ${SEATS[index] || `number ${index + 1}`})`;
    const select = document.createElement("select");
    select.id = `player-${index}`;
    for (const [value, text] of [["human", "Human"], ["computer", "Computer"]]) {
      select.append(new Option(text, value, false, (index !== 0) === (value === "computer")));
    }
    select.addEventListener("change", () => {
      if (current() === undefined) return;
      render();
      maybeEngineMove();
    });
    row.append(label, select);
    players.append(row);
  });
  // A searcher that cannot search this game (alpha-beta and a game of three players)
  // gives way to the game's own, else to the first that can.
  const usable = game.searchers || Object.keys(page.catalogue.searchers);
  if (!usable.includes($("searcher-select").value)) {
    const fallback = usable.includes(game.default_searcher) ? game.default_searcher : usable[0];
    if (fallback) {
      $("searcher-select").value = fallback;
      fillSearcherOptions();
    }
  }
}

function fillSearcherOptions() {
  const container = $("searcher-options");
  container.replaceChildren();
  const searcher = page.catalogue.searchers[searcherName()];
  for (const option of searcher.options) optionInput(container, option, "searcher-option");
}

function playerNames(state) {
  return page.catalogue.games[state.game].player_names;
}

function isComputer(name) {
  if (name === "chance") return true; // the server draws the outcome of a roll of the die
  const select = $(`player-${playerNames(current()).indexOf(name)}`);
  return select !== null && select.value === "computer";
}

function isHumanTurn() {
  const state = current();
  return !state.is_over && !isComputer(state.to_move) && !page.busy && !page.loading && page.preview === null;
}

// ------------------------------------------------------------------- drawing
function playerOf(look, names, symbol) {
  if (symbol === "") return -1;
  if (look.playerOf) return look.playerOf(symbol);
  const index = names.indexOf(symbol);
  if (index >= 0 || symbol.length !== 1) return index;
  return names.findIndex((name) => name[0].toLowerCase() === symbol.toLowerCase());
}

// The cells a move plays, and whether they are one column (a drop game's move).
function cellsOfMove(board, move) {
  const cells = [];
  board.cells.forEach((cell, index) => {
    if (cell.move === move) cells.push(index);
  });
  return cells;
}

// Runs of at least `length` cells holding `symbol`, in the four directions.
function winningLines(board, symbol, length) {
  const { rows, cols } = board;
  const at = (row, col) => board.cells[row * cols + col].symbol;
  const lines = [];
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    for (let row = 0; row < rows; row += 1) {
      for (let col = 0; col < cols; col += 1) {
        const pr = row - dr, pc = col - dc; // start only where the run starts
        if (at(row, col) !== symbol) continue;
        if (pr >= 0 && pr < rows && pc >= 0 && pc < cols && at(pr, pc) === symbol) continue;
        const run = [];
        for (let r = row, c = col; r >= 0 && r < rows && c >= 0 && c < cols && at(r, c) === symbol; r += dr, c += dc) {
          run.push(r * cols + c);
        }
        if (run.length >= length) lines.push(run);
      }
    }
  }
  return lines;
}

// The cells the last move changed: those that were empty before it, else all changed.
function lastMoveCells(before, after) {
  if (!before || !after || before.cells.length !== after.cells.length) return [];
  const changed = [], filled = [];
  after.cells.forEach((cell, index) => {
    const old = before.cells[index].symbol;
    if (old !== cell.symbol) {
      changed.push(index);
      if (old === "") filled.push(index);
    }
  });
  return filled.length ? filled : changed;
}

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  return element;
}

function markSvg(player) {
  const svg = svgElement("svg", { viewBox: "0 0 100 100", class: "mark", "aria-hidden": "true" });
  if (player === 0) {
    svg.append(svgElement("path", { d: "M22 22 L78 78 M78 22 L22 78" }));
  } else {
    svg.append(svgElement("circle", { cx: 50, cy: 50, r: 29 }));
  }
  return svg;
}

function buildBoard(state, look) {
  const board = state.board;
  const element = $("board");
  element.replaceChildren();
  $("board-area").style.setProperty("--cols", board.cols);
  $("board-area").style.setProperty("--rows", board.rows);
  element.dataset.game = state.game;
  element.dataset.look = look.kind;
  board.cells.forEach((cell, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "cell";
    button.dataset.index = index;
    const row = Math.floor(index / board.cols), col = index % board.cols;
    if (look.checkered && (row + col) % 2 === 1) button.classList.add("dark");
    button.addEventListener("click", () => cellClicked(index));
    button.addEventListener("keydown", (event) => moveFocus(event, index));
    element.append(button);
  });
  element.dataset.shape = `${state.game}:${board.rows}x${board.cols}`;
  const columns = $("columns");
  columns.replaceChildren();
  columns.hidden = look.kind !== "drop";
  if (look.kind === "drop") {
    for (let col = 0; col < board.cols; col += 1) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "column";
      button.dataset.col = col;
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = String(col + 1);
      const value = document.createElement("span");
      value.className = "value";
      button.append(number, value);
      button.addEventListener("click", () => columnClicked(col));
      button.addEventListener("keydown", (event) => moveFocus(event, col));
      columns.append(button);
    }
  }
  page.drawn = null;
}

// Arrow keys move between cells: left and right in reading order (wrapping round the
// board), up and down by columns; Home and End go to the first and last cell. In a
// game of columns, the digit keys play a column.
function moveFocus(event, index) {
  const state = page.preview || current();
  const { rows, cols } = state.board;
  if (lookFor(state.game).kind === "drop" && /^[1-9]$/.test(event.key)) {
    event.preventDefault();
    if (Number(event.key) <= cols) columnClicked(Number(event.key) - 1);
    return;
  }
  const count = rows * cols;
  const targets = {
    ArrowLeft: (index + count - 1) % count,
    ArrowRight: (index + 1) % count,
    ArrowUp: index - cols,
    ArrowDown: index + cols,
    Home: 0,
    End: count - 1,
  };
  if (!(event.key in targets)) return;
  const target = targets[event.key];
  event.preventDefault();
  if (target >= 0 && target < count) $("board").children[target].focus();
}

// The move values to show on the board: {move: {text, title, best}}, or null.
function overlayFor(state) {
  const shown = page.analysis;
  if (shown === null || shown.position !== state.position || page.preview !== null) return null;
  const data = shown.data;
  const best = new Set(data.best_moves);
  const overlay = {};
  if (data.visits) {
    for (const entry of data.visits) {
      overlay[entry.move] = {
        text: `${entry.visits}`,
        title: `${entry.visits} visits, mean result ${Number(entry.mean).toFixed(2)}`,
        best: entry.move === data.move,
      };
    }
  } else {
    for (const entry of data.moves) {
      overlay[entry.move] = { text: String(entry.value), title: `value ${entry.value}`, best: best.has(entry.move) };
    }
  }
  return overlay;
}

function render() {
  const state = page.preview || current();
  const board = state.board;
  const look = lookFor(state.game);
  $("board-area").hidden = board === null;
  $("text-board").hidden = board !== null;
  $("text-board").textContent = state.text;
  const overlay = overlayFor(state);
  renderMoveList(state, board === null, overlay);
  renderExtraMoves(state, overlay);
  if (board !== null) renderBoard(state, look, overlay);
  $("board-caption").textContent = board ? board.caption || "" : "";
  $("board-caption").hidden = !board || !board.caption;
  $("board").setAttribute("aria-busy", page.busy ? "true" : "false");
  $("status").textContent = statusText();
  const game = current();
  $("undo").disabled = page.record.index === 0;
  $("hint").disabled = game.is_over || page.busy;
  $("engine-move").disabled = game.is_over || page.busy;
  renderLegend(state, overlay);
  renderPreviewBanner();
  renderRecord();
}

function renderBoard(state, look, overlay) {
  const board = state.board;
  if ($("board").dataset.shape !== `${state.game}:${board.rows}x${board.cols}`) buildBoard(state, look);
  const names = playerNames(state);
  const cells = $("board").children;
  const playable = isHumanTurn();
  const previous = page.preview ? current().board : page.record.states[page.record.index - 1]?.board;
  const last = new Set(lastMoveCells(previous, board));
  const winning = new Set();
  const lines = state.winner && look.winLength ? winningLines(board, state.winner, look.winLength(state)) : [];
  for (const line of lines) line.forEach((index) => winning.add(index));
  const drawn = page.drawn;
  const shape = `${board.rows}x${board.cols}`;
  const newlyFilled = drawn && drawn.shape === shape
    ? board.cells.map((cell, index) => drawn.symbols[index] === "" && cell.symbol !== "").reduce(
      (list, isNew, index) => (isNew ? [...list, index] : list), [])
    : [];
  // moves of two clicks: the pieces that can move, and where the picked one can go
  const paths = playable ? board.paths || [] : [];
  const starts = new Set(paths.map((path) => path.cells[0]));
  const targets = new Map();
  for (const path of paths) {
    const end = path.cells[path.cells.length - 1];
    if (path.cells[0] === page.selected) targets.set(end, [...(targets.get(end) || []), path.move]);
  }
  board.cells.forEach((cell, index) => {
    const button = cells[index];
    const row = Math.floor(index / board.cols) + 1;
    const col = (index % board.cols) + 1;
    const player = playerOf(look, names, cell.symbol);
    const canPlay = (cell.move !== null || starts.has(index) || targets.has(index)) && playable;
    button.replaceChildren();
    const symbol = document.createElement("span");
    symbol.className = "symbol";
    symbol.textContent = cell.symbol;
    if (look.kind === "marks" && player >= 0) button.append(markSvg(player));
    else if ((look.kind === "drop" || look.kind === "discs") && cell.symbol !== "") {
      const disc = document.createElement("span");
      disc.className = "disc";
      disc.classList.toggle("crowned", Boolean(look.crowned && look.crowned(cell.symbol)));
      disc.setAttribute("aria-hidden", "true");
      button.append(disc);
    } else if (look.kind === "pieces" && cell.symbol !== "") {
      const glyph = document.createElement("span");
      glyph.className = "glyph";
      glyph.setAttribute("aria-hidden", "true");
      glyph.textContent = look.glyphs[cell.symbol] || cell.symbol;
      button.append(glyph);
    }
    symbol.classList.toggle("visually-hidden", look.kind !== "grid");
    button.append(symbol);
    let label = `${(look.names && look.names[cell.symbol]) || cell.symbol || "empty"}, row ${row}, column ${col}`;
    const pathMove = targets.has(index) && targets.get(index).length === 1 ? targets.get(index)[0] : null;
    const cellMove = cell.move !== null ? cell.move : pathMove;
    const entry = overlay && look.kind !== "drop" && cellMove !== null ? overlay[cellMove] : undefined;
    button.classList.toggle("best", Boolean(entry && entry.best));
    if (entry) {
      const value = document.createElement("span");
      value.className = "value";
      value.textContent = entry.text;
      value.title = entry.title;
      button.append(value);
      label += `, ${entry.title}${entry.best ? ", a best move" : ""}`;
    }
    if (starts.has(index)) label += index === page.selected ? ", picked: now choose where it goes" : ", can move";
    if (targets.has(index)) label += `, plays ${targets.get(index).join(" or ")}`;
    if (last.has(index)) label += ", the last move";
    if (winning.has(index)) label += ", in the winning line";
    button.dataset.symbol = cell.symbol;
    button.dataset.player = String(player);
    button.setAttribute("aria-label", label);
    button.setAttribute("aria-disabled", canPlay ? "false" : "true");
    button.classList.toggle("last-move", last.has(index));
    button.classList.toggle("selected", index === page.selected && starts.has(index));
    button.classList.toggle("target", targets.has(index));
    button.classList.toggle("winning", winning.has(index));
    button.classList.remove("hinted");
    const drops = look.kind === "drop" && newlyFilled.length === 1 && newlyFilled[0] === index;
    button.classList.toggle("dropping", drops);
    if (drops) button.style.setProperty("--fall", row);
  });
  if (look.kind === "drop") renderColumns(state, overlay, playable);
  page.drawn = { shape, symbols: board.cells.map((cell) => cell.symbol) };
  drawLines(lines);
}

function renderColumns(state, overlay, playable) {
  const board = state.board;
  for (const button of $("columns").children) {
    const col = Number(button.dataset.col);
    const move = board.cells[col].move; // the top cell: playable while the column is not full
    const entry = overlay && move !== null ? overlay[move] : undefined;
    button.querySelector(".value").textContent = entry ? entry.text : "";
    button.querySelector(".value").title = entry ? entry.title : "";
    button.classList.toggle("best", Boolean(entry && entry.best));
    button.setAttribute("aria-disabled", move !== null && playable ? "false" : "true");
    button.setAttribute(
      "aria-label",
      `column ${col + 1}${move === null ? ", full" : ""}${entry ? `, ${entry.title}${entry.best ? ", a best move" : ""}` : ""}`,
    );
  }
}

// The winning line(s), drawn over the board through the centres of their end cells.
function drawLines(lines) {
  const svg = $("board-lines");
  svg.replaceChildren();
  const area = $("board-area");
  svg.setAttribute("width", area.offsetWidth);
  svg.setAttribute("height", area.offsetHeight);
  const cells = $("board").children;
  const centre = (index) => {
    const cell = cells[index];
    return [cell.offsetLeft + cell.offsetWidth / 2, cell.offsetTop + cell.offsetHeight / 2];
  };
  for (const line of lines) {
    const [x1, y1] = centre(line[0]);
    const [x2, y2] = centre(line[line.length - 1]);
    svg.append(svgElement("line", { x1, y1, x2, y2, class: "win-line" }));
  }
}

// A game without a board view is shown as text, with one button per legal move.
function renderMoveList(state, shown, overlay) {
  const list = $("move-list");
  list.hidden = !shown;
  list.replaceChildren();
  if (!shown) return;
  for (const move of isHumanTurn() ? state.legal_moves : []) list.append(moveButton(`Play ${move}`, move, overlay));
}

// Moves that are not cells (a pass, say), offered by the board view.
function renderExtraMoves(state, overlay) {
  const list = $("extra-moves");
  const choices = (page.choices || []).map((move) => ({ label: `Play ${move}`, move }));
  const extra = state.board ? [...(state.board.extra_moves || []), ...choices] : [];
  list.hidden = extra.length === 0;
  list.replaceChildren();
  const playable = isHumanTurn();
  for (const { label, move } of extra) {
    const button = moveButton(label, move, overlay);
    button.disabled = !playable || !state.legal_moves.includes(move);
    list.append(button);
  }
}

function moveButton(label, move, overlay) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "move-button";
  button.textContent = label;
  const entry = overlay ? overlay[move] : undefined;
  if (entry) {
    const value = document.createElement("span");
    value.className = "value";
    value.textContent = entry.text;
    value.title = entry.title;
    button.append(value);
    button.classList.toggle("best", entry.best);
    button.setAttribute("aria-label", `${label}, ${entry.title}${entry.best ? ", a best move" : ""}`);
  }
  button.addEventListener("click", () => playMove(move));
  return button;
}

function renderLegend(state, overlay) {
  const legend = $("values-legend");
  legend.hidden = overlay === null;
  if (overlay === null) return;
  const data = page.analysis.data;
  const first = playerNames(state)[0];
  legend.textContent = data.visits
    ? `Visits of each move by ${SEARCHER_NAMES.mcts.toLowerCase()}; the most visited is marked. ` +
      `${data.to_move} to move; the position is worth ${data.description}.`
    : `Values of each move, from ${first}'s point of view (higher is better for ${first}); ` +
      `the best moves are marked. ${data.to_move} to move: ${data.description}` +
      `${data.is_exact ? "" : " (an estimate, not exact)"}.`;
}

function statusText() {
  const state = current();
  if (page.loading) return "Loading the game of the link…";
  if (state.is_over) {
    return state.winner === null ? "Game over: a draw." : `Game over: ${state.winner} wins.`;
  }
  if (page.busy) return `${state.to_move} is thinking…`;
  if (isComputer(state.to_move)) return `${state.to_move} to move (computer): press “Computer, move now” to go on.`;
  return `${state.to_move} to move (your turn).`;
}

function renderPreviewBanner() {
  const banner = $("preview-banner");
  banner.hidden = page.preview === null;
  if (page.preview !== null) $("preview-text").textContent = page.previewText;
}

// ------------------------------------------------------------------ the record
function renderRecord() {
  const record = page.record;
  const list = $("record");
  list.replaceChildren();
  const start = document.createElement("button");
  start.type = "button";
  start.className = "record-move";
  start.textContent = record.fromStart ? "Start" : "Given position";
  start.setAttribute("aria-label", "the position before the first move");
  start.addEventListener("click", () => goTo(0));
  start.classList.toggle("current", record.index === 0);
  list.append(start);
  // one row per turn pair: "1.  X 4  O 4"
  const table = document.createElement("div");
  table.className = "record-rows";
  record.moves.forEach((entry, index) => {
    if (index % 2 === 0) {
      const number = document.createElement("span");
      number.className = "record-number";
      number.textContent = `${index / 2 + 1}.`;
      table.append(number);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.className = "record-move";
    button.dataset.ply = index + 1;
    button.textContent = `${entry.player} ${entry.move}`;
    button.setAttribute("aria-label", `move ${index + 1}: ${entry.player} plays ${entry.move}`);
    button.classList.toggle("current", record.index === index + 1);
    button.classList.toggle("later", record.index < index + 1);
    if (record.index === index + 1) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => goTo(index + 1));
    table.append(button);
  });
  list.append(table);
  $("record-start").disabled = $("record-back").disabled = record.index === 0;
  $("record-forward").disabled = $("record-end").disabled = record.index === record.moves.length;
  updateLink();
}

function goTo(index) {
  const record = page.record;
  if (index < 0 || index > record.moves.length) return;
  page.generation += 1;
  page.busy = false;
  page.preview = null;
  record.index = index;
  showError(null);
  $("analysis").textContent = "";
  positionChanged();
}

// The link to this game: its options, the position it started from (when not the
// start), the moves played and, when earlier, the move shown.
function shareLink() {
  const record = page.record;
  const first = record.states[0];
  const params = new URLSearchParams();
  params.set("game", first.game);
  for (const [name, value] of Object.entries(first.options)) params.set(name, String(value));
  if (!record.fromStart) params.set("position", first.position);
  if (record.moves.length) params.set("moves", record.moves.map((entry) => entry.move).join(","));
  if (record.index < record.moves.length) params.set("at", String(record.index));
  return `${window.location.origin}${window.location.pathname}?${params}`;
}

function updateLink() {
  const link = shareLink();
  if (link !== window.location.href) window.history.replaceState(null, "", link);
  $("share-link").value = link;
}

async function copyLink() {
  $("share-link").select();
  try {
    await navigator.clipboard.writeText($("share-link").value);
    $("copy-done").textContent = "Copied.";
  } catch (error) {
    $("copy-done").textContent = "Select the link and copy it.";
  }
}

// ------------------------------------------------------------------ playing
async function newGame(position) {
  showError(null);
  page.generation += 1;
  page.busy = false;
  page.preview = null;
  const request = { game: $("game-select").value, options: readInputs($("game-options")) };
  let state;
  try {
    state = position ? await api("/api/position", { ...request, position }) : await api("/api/new", request);
  } catch (error) {
    showError(error);
    return false;
  }
  page.record = { states: [state], moves: [], index: 0, fromStart: !position };
  $("analysis").textContent = "";
  positionChanged();
  return true;
}

function cellClicked(index) {
  const board = (page.preview || current()).board;
  const move = board.cells[index].move;
  if (move !== null) {
    playMove(move);
    return;
  }
  const paths = board.paths || [];
  if (!paths.length || !isHumanTurn()) return;
  // a move of two clicks: the first picks a piece, the second the cell it goes to
  const chosen = paths.filter((path) => path.cells[0] === page.selected && path.cells[path.cells.length - 1] === index);
  page.choices = null;
  if (chosen.length === 1) {
    page.selected = null;
    playMove(chosen[0].move);
    return;
  }
  if (chosen.length > 1) page.choices = chosen.map((path) => path.move); // offered as buttons
  else page.selected = index !== page.selected && paths.some((path) => path.cells[0] === index) ? index : null;
  render();
}

function columnClicked(col) {
  const move = (page.preview || current()).board.cells[col].move;
  if (move !== null) playMove(move);
}

async function playMove(move) {
  const state = current();
  if (!isHumanTurn() || page.playing) return;
  showError(null);
  page.playing = true;
  try {
    const next = await api("/api/play", positionRequest(state, { move }));
    page.playing = false;
    advance(next, { move, player: state.to_move });
  } catch (error) {
    page.playing = false;
    showError(error);
  }
}

function advance(next, entry) {
  const record = page.record;
  record.states.splice(record.index + 1);
  record.moves.splice(record.index);
  record.states.push(next);
  record.moves.push(entry);
  record.index += 1;
  page.generation += 1;
  // the computer is about to move: its search, not an analysis, gets the time
  positionChanged(!next.is_over && isComputer(next.to_move));
  maybeEngineMove();
}

// After any change of the position shown: redraw, drop the old tree, analyse if asked
// (unless the computer moves next).
function positionChanged(computerMovesNext = false) {
  page.selected = page.choices = null;
  clearTree();
  render();
  if ($("show-values").checked && !computerMovesNext) analyse();
}

function maybeEngineMove() {
  const state = current();
  if (state && !state.is_over && !page.busy && page.preview === null && isComputer(state.to_move)) engineMove();
}

async function engineMove() {
  const state = current();
  if (page.busy || state.is_over) return;
  showError(null);
  page.preview = null;
  page.busy = true;
  const generation = page.generation;
  render();
  try {
    const answer = await api("/api/move", searchRequest(state, "move"));
    if (generation !== page.generation) return;
    page.busy = false;
    const search = answer.search;
    $("analysis").textContent =
      `${search.to_move} played ${answer.move}: ${search.description} ` +
      `(${search.stats.nodes.toLocaleString("en")} nodes, depth ${search.stats.depth}, ` +
      `${search.stats.seconds.toFixed(2)} s).`;
    advance(answer.state, { move: answer.move, player: search.to_move });
  } catch (error) {
    if (generation !== page.generation) return;
    page.busy = false;
    render();
    showError(error);
  }
}

function undo() {
  const record = page.record;
  if (record.index === 0) return;
  // Take back moves until it is a human's turn again (the human's move and the reply).
  let index = record.index;
  do {
    index -= 1;
  } while (index > 0 && isComputer(record.states[index].to_move));
  record.states.splice(index + 1);
  record.moves.splice(index);
  goTo(index);
}

async function analyse() {
  const state = current();
  if (state.is_over) return null;
  const generation = page.generation;
  let data;
  try {
    data = await api("/api/analyze", searchRequest(state, "analysis"));
  } catch (error) {
    if (generation === page.generation) showError(error);
    return null;
  }
  if (generation !== page.generation) return null;
  page.analysis = { position: state.position, data };
  render();
  return data;
}

async function hint() {
  showError(null);
  const answer = await analyse();
  if (answer === null) return;
  $("analysis").textContent =
    `Hint for ${answer.to_move}: ${answer.best_moves.join(", ")} ` +
    `(${answer.description}; line ${answer.pv.join(" ")}).`;
  const board = current().board;
  const cells = $("board").children;
  const look = lookFor(current().game);
  board?.cells.forEach((cell, index) => {
    const isHinted = cell.move === answer.move && (look.kind !== "drop" || index === dropTarget(board, cell.move));
    const ends = (board.paths || []).filter((path) => path.move === answer.move)
      .flatMap((path) => [path.cells[0], path.cells[path.cells.length - 1]]);
    cells[index].classList.toggle("hinted", isHinted || ends.includes(index));
  });
  if (!$("show-values").checked) {
    page.analysis = null;
  }
}

// The lowest empty cell of a drop game's column: where its disc lands.
function dropTarget(board, move) {
  const cells = cellsOfMove(board, move).filter((index) => board.cells[index].symbol === "");
  return cells.length ? cells[cells.length - 1] : -1;
}

// ------------------------------------------------------ the tree on the board
async function showNode(node) {
  const tree = page.tree;
  tree.selected = node;
  drawTree();
  describeNode(node);
  const state = current();
  let preview;
  try {
    preview = node.cut
      ? await api("/api/play", { game: state.game, options: state.options, position: node.parent.position, move: node.move })
      : await api("/api/position", { game: state.game, options: state.options, position: node.position });
  } catch (error) {
    showError(error);
    return;
  }
  if (page.tree !== tree) return;
  page.preview = preview;
  const line = pathTo(node).map((step) => step.move).join(" ");
  page.previewText = node.depth === 0
    ? "Showing the root of the search tree (the game's position)."
    : `Showing a position from the search tree, after ${line}` +
      (node.cut ? " (cut off unsearched)." : `: value ${valueText(node)}.`);
  render();
}

function backToGame() {
  if (page.preview === null) return;
  page.preview = null;
  render();
}

// ----------------------------------------------------------------- explorer
const DX = 50; // horizontal room per leaf of the drawn tree, in pixels at scale 1
const DY = 84; // vertical distance between plies
const COLLAPSE_OVER = 150; // trees with more nodes start folded below the second ply

function clearTree() {
  page.tree = null;
  $("tree-layer").replaceChildren();
  $("tree-view").hidden = true;
  $("tree-summary").textContent = "";
  $("node-details").textContent = "";
  $("steps").hidden = true;
}

function treeRequestError(error) {
  clearTree();
  $("tree-summary").textContent = "";
  showError(error);
}

async function explore() {
  showError(null);
  backToGame();
  const state = current();
  if (state.is_over) {
    clearTree();
    const outcome = state.winner === null ? "a draw" : `${state.winner} won`;
    $("tree-summary").textContent = `The game is over (${outcome}): there is no search tree to show.`;
    return;
  }
  const generation = page.generation;
  const request = searchRequest(state, "tree");
  $("tree-summary").textContent = "Searching…";
  let data, note = "";
  try {
    data = await api("/api/tree", request);
  } catch (error) {
    const canDeepen = error.type === "BudgetExceededError" && searcherHas("depth") && !("depth" in request.searcher_options);
    if (!canDeepen) {
      if (generation === page.generation) treeRequestError(error);
      return;
    }
    // The whole tree is too big to draw: find the deepest depth limit whose tree fits.
    let depth = 0;
    for (let tried = 1; tried <= 64; tried += 1) {
      const options = { ...request.searcher_options, depth: String(tried) };
      try {
        data = await api("/api/tree", { ...request, searcher_options: options });
        depth = tried;
      } catch (deeper) {
        if (depth === 0) {
          if (generation === page.generation) treeRequestError(deeper);
          return;
        }
        break;
      }
    }
    note = ` The whole tree has more than ${page.catalogue.limits.tree_nodes.toLocaleString("en")} nodes, ` +
      `more than this server draws: this is the search to depth ${depth}, the deepest that fits ` +
      "(set a depth in the searcher options to choose another).";
  }
  if (generation !== page.generation) return;
  const tree = { data, nodes: [], selected: null, collapsed: new Set(), view: { x: 0, y: 0, k: 1 } };
  page.tree = tree;
  prepareTree(tree, data.root);
  const name = SEARCHER_NAMES[data.searcher] || data.searcher;
  const pruned = data.pruned ? ` and cut off ${data.pruned.toLocaleString("en")} ${data.pruned === 1 ? "branch" : "branches"}` : "";
  const drawn = tree.nodes.length === data.nodes ? "" : ` (the tree drawn is its last iteration, ${tree.nodes.length} nodes)`;
  $("tree-summary").textContent =
    `${name} visited ${data.nodes.toLocaleString("en")} nodes${pruned}${drawn}; ` +
    `value ${data.value}, best move ${data.move}.${note}`;
  tree.step = tree.nodes.length;
  $("steps").hidden = false;
  $("tree-view").hidden = false;
  layoutTree(tree);
  fitTree();
  drawTree();
}

// Number the nodes in the order the search entered them (depth first), link each to
// its parent, mark the principal variation and fold big trees.
function prepareTree(tree, root) {
  const visit = (node, parent, depth) => {
    node.parent = parent;
    node.depth = depth;
    node.step = tree.nodes.length;
    node.id = `n${node.step}`;
    tree.nodes.push(node);
    for (const child of node.children) visit(child, node, depth + 1);
    node.lastStep = tree.nodes.length - 1;
    node.cuts = node.pruned.map((move, index) => ({ move, cut: true, parent: node, depth: depth + 1, id: `${node.id}c${index}`, children: [], cuts: [] }));
  };
  visit(root, null, 0);
  for (let node = root; node && node.value !== null;) {
    node.isPv = true;
    node = node.children.find((child) => child.value === node.value && child.bound === "exact")
      || node.children.find((child) => child.value === node.value);
  }
  if (tree.nodes.length > COLLAPSE_OVER) {
    for (const node of tree.nodes) if (node.depth >= 2 && node.children.length && !node.isPv) tree.collapsed.add(node.id);
  }
}

function visibleChildren(tree, node) {
  return tree.collapsed.has(node.id) ? [] : [...node.children, ...node.cuts];
}

// A tidy layered layout: leaves side by side, each parent centred over its children.
function layoutTree(tree) {
  let next = 0;
  let depth = 0;
  const place = (node) => {
    depth = Math.max(depth, node.depth);
    const children = visibleChildren(tree, node);
    for (const child of children) place(child);
    node.x = children.length ? (children[0].x + children[children.length - 1].x) / 2 : next++;
    node.y = node.depth;
  };
  place(tree.nodes[0]);
  tree.width = Math.max(1, next) * DX;
  tree.height = (depth + 1) * DY;
}

function isShown(tree, node) {
  return node.cut ? node.parent.lastStep < tree.step : node.step < tree.step;
}

function valueText(node) {
  if (node.value === null) return "?";
  if (node.bound === "upper") return `≤${node.value}`;
  if (node.bound === "lower") return `≥${node.value}`;
  return String(node.value);
}

function bound(value, infinity) {
  return value === null ? infinity : String(value);
}

// The name of the player to move at a traced node ("first", "second", ... in the trace).
function playerAt(node) {
  const names = playerNames(current());
  return names[Math.max(0, SEATS.indexOf(node.to_move))];
}

function pathTo(node) {
  const path = [];
  for (let at = node; at && at.parent; at = at.parent) path.unshift(at);
  return path;
}

function nodeLabel(tree, node) {
  if (node.cut) return `${playerAt(node.parent)} plays ${node.move}: cut off unsearched`;
  const done = node.lastStep < tree.step;
  const move = node.parent === null ? `start, ${playerAt(node)} to move` : `${playerAt(node.parent)} plays ${node.move}`;
  return `${move}: value ${done ? valueText(node) : "…"} (α ${bound(node.alpha, "−∞")}, β ${bound(node.beta, "+∞")})`;
}

function describeNode(node) {
  const tree = page.tree;
  if (!node || !tree) return;
  let text = nodeLabel(tree, node);
  if (!node.cut) {
    const searched = node.children.length, cut = node.pruned.length;
    text += node.is_leaf
      ? "; a leaf."
      : `; ${searched} ${searched === 1 ? "move" : "moves"} searched` + (cut ? `, ${cut} cut off.` : ".");
  }
  $("node-details").textContent = text;
}

function drawTree() {
  const tree = page.tree;
  const layer = $("tree-layer");
  layer.replaceChildren();
  const px = (node) => node.x * DX + DX / 2;
  const py = (node) => node.y * DY + 30;
  const edges = svgElement("g", { class: "edges" });
  const nodes = svgElement("g", { class: "nodes" });
  const currentNode = tree.nodes[tree.step - 1];
  const draw = (node) => {
    const children = visibleChildren(tree, node);
    for (const child of children) {
      if (!isShown(tree, child)) continue;
      const [x1, y1, x2, y2] = [px(node), py(node) + 17, px(child), py(child) - (child.cut ? 9 : 18)];
      const middle = (y1 + y2) / 2;
      const edge = svgElement("path", { d: `M${x1} ${y1} C${x1} ${middle} ${x2} ${middle} ${x2} ${y2}`, class: "edge" });
      if (child.cut) edge.classList.add("pruned");
      if (child.isPv && node.isPv) edge.classList.add("pv");
      edges.append(edge);
      draw(child);
    }
    nodes.append(nodeGroup(tree, node, px(node), py(node), node === currentNode));
  };
  draw(tree.nodes[0]);
  layer.append(edges, nodes);
  applyView();
  $("step-count").textContent = `Node ${tree.step} of ${tree.nodes.length}`;
}

function nodeGroup(tree, node, x, y, isCurrent) {
  // only the current node is in the tab order (the arrow keys reach the others)
  const tabindex = isCurrent ? "0" : "-1";
  const group = svgElement("g", { class: "tnode", transform: `translate(${x} ${y})`, tabindex, role: "button" });
  group.dataset.id = node.id;
  group.setAttribute("aria-label", nodeLabel(tree, node));
  if (node.cut) group.classList.add("pruned");
  else {
    group.classList.add(node.to_move === "second" ? "second" : "first");
    if (node.lastStep >= tree.step) group.classList.add("pending");
  }
  if (isCurrent) group.classList.add("current");
  if (tree.selected === node) group.classList.add("selected");
  if (node.isPv) group.classList.add("pv");
  const shape = node.cut
    ? svgElement("circle", { r: 9, class: "shape" })
    : node.to_move === "second"
      ? svgElement("circle", { r: 19, class: "shape" })
      : svgElement("rect", { x: -19, y: -17, width: 38, height: 34, rx: 4, class: "shape" });
  const title = svgElement("title");
  title.textContent = nodeLabel(tree, node);
  group.append(title, shape);
  if (!node.cut) {
    const value = svgElement("text", { class: "value", y: 4 });
    value.textContent = node.lastStep < tree.step ? valueText(node) : "…";
    group.append(value);
  }
  if (node.parent) {
    const move = svgElement("text", { class: "move", x: -9, y: node.cut ? -12 : -22 });
    move.textContent = node.move;
    group.append(move);
  }
  group.addEventListener("click", (event) => {
    event.stopPropagation();
    showNode(node);
  });
  group.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      showNode(node);
    }
  });
  if (!node.cut && (node.children.length || node.cuts.length)) {
    const folded = tree.collapsed.has(node.id);
    const fold = svgElement("g", { class: "fold", transform: "translate(0 27)", tabindex, role: "button" });
    fold.setAttribute("aria-label", `${folded ? "unfold" : "fold"} the branch below ${node.parent ? node.move : "the root"}`);
    fold.setAttribute("aria-expanded", folded ? "false" : "true");
    const mark = svgElement("text", { y: 4 });
    mark.textContent = folded ? `+${countBelow(node)}` : "−";
    fold.append(svgElement("rect", { x: folded ? -14 : -7, y: -7, width: folded ? 28 : 14, height: 14, rx: 7 }), mark);
    const toggle = (event) => {
      event.preventDefault();
      event.stopPropagation();
      toggleFold(node);
    };
    fold.addEventListener("click", toggle);
    fold.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") toggle(event);
    });
    group.append(fold);
  }
  return group;
}

function countBelow(node) {
  return node.children.reduce((sum, child) => sum + 1 + countBelow(child), 0) + node.cuts.length;
}

function toggleFold(node) {
  const tree = page.tree;
  const anchor = screenPosition(node);
  if (tree.collapsed.has(node.id)) tree.collapsed.delete(node.id);
  else tree.collapsed.add(node.id);
  layoutTree(tree);
  // keep the folded node where it was on the screen
  const moved = screenPosition(node);
  tree.view.x += anchor[0] - moved[0];
  tree.view.y += anchor[1] - moved[1];
  drawTree();
  document.querySelector(`#tree .tnode[data-id="${node.id}"] .fold`)?.focus();
}

function expandAll() {
  const tree = page.tree;
  if (!tree) return;
  tree.collapsed.clear();
  layoutTree(tree);
  fitTree();
  drawTree();
}

function setStep(step) {
  const tree = page.tree;
  if (tree === null) return;
  const hadFocus = $("tree-layer").contains(document.activeElement);
  tree.step = Math.max(1, Math.min(tree.nodes.length, step));
  const node = tree.nodes[tree.step - 1];
  let unfolded = false;
  for (let at = node.parent; at; at = at.parent) unfolded = tree.collapsed.delete(at.id) || unfolded;
  if (unfolded) layoutTree(tree);
  keepInView(node);
  drawTree();
  describeNode(node);
  if (hadFocus) $("tree-view").focus(); // the focused node was redrawn
}

// ------------------------------------------------------------ pan and zoom
function screenPosition(node) {
  const { x, y, k } = page.tree.view;
  return [(node.x * DX + DX / 2) * k + x, (node.y * DY + 30) * k + y];
}

function applyView() {
  const { x, y, k } = page.tree.view;
  $("tree-layer").setAttribute("transform", `translate(${x} ${y}) scale(${k})`);
}

function fitTree() {
  const tree = page.tree;
  const view = $("tree-view");
  const width = view.clientWidth || 800, height = view.clientHeight || 460;
  // the whole tree if it is readable so, else the top of it around the root
  const k = Math.max(0.7, Math.min(1.4, (width - 20) / tree.width, (height - 20) / (tree.height + 20)));
  const root = tree.nodes[0];
  const x = tree.width * k <= width ? (width - tree.width * k) / 2 : width / 2 - (root.x * DX + DX / 2) * k;
  tree.view = { k, x, y: 10 };
  applyView();
}

function zoom(factor, cx, cy) {
  const tree = page.tree;
  if (!tree) return;
  const view = $("tree-view");
  const x = cx === undefined ? view.clientWidth / 2 : cx;
  const y = cy === undefined ? view.clientHeight / 2 : cy;
  const k = Math.max(0.05, Math.min(4, tree.view.k * factor));
  const ratio = k / tree.view.k;
  tree.view = { k, x: x - (x - tree.view.x) * ratio, y: y - (y - tree.view.y) * ratio };
  applyView();
}

function keepInView(node) {
  const view = $("tree-view");
  const [sx, sy] = screenPosition(node);
  const margin = 40;
  if (sx < margin || sx > view.clientWidth - margin || sy < margin || sy > view.clientHeight - margin) {
    page.tree.view.x += view.clientWidth / 2 - sx;
    page.tree.view.y += view.clientHeight / 2 - sy;
  }
}

function setUpPanZoom() {
  const view = $("tree-view");
  let drag = null;
  view.addEventListener("pointerdown", (event) => {
    if (!page.tree || event.target.closest(".tnode")) return;
    drag = { x: event.clientX, y: event.clientY, vx: page.tree.view.x, vy: page.tree.view.y };
    view.setPointerCapture(event.pointerId);
    view.classList.add("dragging");
  });
  view.addEventListener("pointermove", (event) => {
    if (!drag) return;
    page.tree.view.x = drag.vx + event.clientX - drag.x;
    page.tree.view.y = drag.vy + event.clientY - drag.y;
    applyView();
  });
  const stop = () => {
    drag = null;
    view.classList.remove("dragging");
  };
  view.addEventListener("pointerup", stop);
  view.addEventListener("pointercancel", stop);
  view.addEventListener("wheel", (event) => {
    if (!page.tree) return;
    event.preventDefault();
    const box = view.getBoundingClientRect();
    zoom(Math.exp(-event.deltaY / 500), event.clientX - box.left, event.clientY - box.top);
  }, { passive: false });
  view.addEventListener("keydown", (event) => {
    if (!page.tree) return;
    const actions = {
      ArrowRight: () => setStep(page.tree.step + 1),
      ArrowDown: () => setStep(page.tree.step + 1),
      ArrowLeft: () => setStep(page.tree.step - 1),
      ArrowUp: () => setStep(page.tree.step - 1),
      Home: () => setStep(1),
      End: () => setStep(page.tree.nodes.length),
      "+": () => zoom(1.25),
      "=": () => zoom(1.25),
      "-": () => zoom(0.8),
      "0": () => fitTree(),
      Enter: () => showNode(page.tree.nodes[page.tree.step - 1]),
    };
    if (!(event.key in actions)) return;
    event.preventDefault();
    actions[event.key]();
  });
}

// -------------------------------------------------------------------- start
async function loadRecord(params) {
  page.loading = true;
  render();
  const moves = (params.get("moves") || "").split(",").filter((move) => move !== "");
  for (const [index, move] of moves.entries()) {
    const state = current();
    let next;
    try {
      next = await api("/api/play", positionRequest(state, { move }));
    } catch (error) {
      showError(`the link's move ${index + 1} (${move}) cannot be played: ${error.message}`);
      break;
    }
    page.record.states.push(next);
    page.record.moves.push({ move, player: state.to_move });
    page.record.index += 1;
  }
  const at = params.get("at");
  if (at !== null && /^\d+$/.test(at)) page.record.index = Math.min(Number(at), page.record.moves.length);
  page.loading = false;
  positionChanged();
}

function recordKeys(event) {
  const index = page.record.index;
  const actions = {
    ArrowLeft: index - 1,
    ArrowUp: index - 1,
    ArrowRight: index + 1,
    ArrowDown: index + 1,
    Home: 0,
    End: page.record.moves.length,
  };
  if (!(event.key in actions)) return;
  event.preventDefault();
  goTo(actions[event.key]);
  $("record").focus();
}

async function start() {
  try {
    page.catalogue = await api("/api/games");
  } catch (error) {
    $("status").textContent = "The server did not answer.";
    showError(error);
    return;
  }
  const catalogue = page.catalogue;
  for (const name of Object.keys(catalogue.games)) $("game-select").append(new Option(name, name));
  for (const name of Object.keys(catalogue.searchers)) {
    const description = catalogue.searchers[name].description;
    $("searcher-select").append(new Option(`${name}: ${description}`, name));
  }
  if ("iterative" in catalogue.searchers) $("searcher-select").value = "iterative";
  const limits = catalogue.limits;
  $("engine-seconds").max = limits.seconds;
  $("limits-note").textContent =
    `This server stops every search after ${limits.max_nodes.toLocaleString("en")} nodes ` +
    `or ${limits.seconds} s, and draws trees of up to ${limits.tree_nodes.toLocaleString("en")} nodes.`;
  // A link names the game, its options, a position to start from, the moves played
  // and the move shown: /?game=connect4&moves=4,4,3&at=2
  const params = new URLSearchParams(window.location.search);
  if (params.get("game") in catalogue.games) $("game-select").value = params.get("game");
  fillSearcherOptions();
  fillGameOptions();
  for (const input of $("game-options").querySelectorAll("input")) {
    if (params.has(input.name)) input.value = params.get(input.name);
  }
  $("game-select").addEventListener("change", () => {
    fillGameOptions();
    newGame();
  });
  $("searcher-select").addEventListener("change", fillSearcherOptions);
  $("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame().then((ok) => ok && maybeEngineMove());
  });
  $("new-game").addEventListener("click", () => newGame().then((ok) => ok && maybeEngineMove()));
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("engine-move").addEventListener("click", engineMove);
  $("show-values").addEventListener("change", () => {
    if ($("show-values").checked) analyse();
    else {
      page.analysis = null;
      render();
    }
  });
  $("preview-back").addEventListener("click", backToGame);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && page.preview !== null) backToGame();
  });
  $("record").addEventListener("keydown", recordKeys);
  $("record-start").addEventListener("click", () => goTo(0));
  $("record-back").addEventListener("click", () => goTo(page.record.index - 1));
  $("record-forward").addEventListener("click", () => goTo(page.record.index + 1));
  $("record-end").addEventListener("click", () => goTo(page.record.moves.length));
  $("copy-link").addEventListener("click", copyLink);
  $("explore").addEventListener("click", explore);
  $("step-first").addEventListener("click", () => setStep(1));
  $("step-back").addEventListener("click", () => setStep(page.tree.step - 1));
  $("step-next").addEventListener("click", () => setStep(page.tree.step + 1));
  $("step-all").addEventListener("click", () => setStep(page.tree.nodes.length));
  $("zoom-in").addEventListener("click", () => zoom(1.25));
  $("zoom-out").addEventListener("click", () => zoom(0.8));
  $("zoom-fit").addEventListener("click", () => page.tree && fitTree());
  $("expand-all").addEventListener("click", expandAll);
  setUpPanZoom();
  window.addEventListener("resize", () => current() && render());
  page.loading = params.has("moves") || params.has("at");
  if (await newGame(params.get("position"))) {
    if (params.has("moves") || params.has("at")) await loadRecord(params);
    else maybeEngineMove();
  }
}

start();
