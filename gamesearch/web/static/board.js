// The gamesearch board page: plain JavaScript over the JSON API, no build step.
// The server keeps no game state: this page keeps the current position (as the
// game's text) and the positions before it (for undo), and sends them with every
// request. Every board is drawn from the game's own description (rows, columns,
// each cell's symbol and the move a click on it plays), so a new game plugin needs
// no new code here.
"use strict";

const $ = (id) => document.getElementById(id);

const page = {
  catalogue: null, // GET /api/games
  current: null, // the state of the current position (see describe_state)
  history: [], // earlier states, for undo
  busy: false, // an engine move is being searched
  playing: false, // a move of the human's is on its way to the server
  generation: 0, // bumped by new game and undo, so a late engine answer is ignored
  tree: null, // the explorer's tree, with nodes in visiting order
  step: 0, // how many nodes of the tree are shown
};

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
    throw new Error(data.error || `request failed with status ${response.status}`);
  }
  return data;
}

function positionRequest(extra) {
  const current = page.current;
  return { game: current.game, options: current.options, position: current.position, ...extra };
}

function searchRequest(searcher) {
  return positionRequest({
    searcher: searcher || $("searcher-select").value,
    searcher_options: searcher ? {} : readInputs($("searcher-options")),
  });
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
    label.textContent = `${name} (${index === 0 ? "moves first" : "moves second"})`;
    const select = document.createElement("select");
    select.id = `player-${index}`;
    for (const [value, text] of [["human", "Human"], ["computer", "Computer"]]) {
      select.append(new Option(text, value, false, (index === 1) === (value === "computer")));
    }
    select.addEventListener("change", () => {
      if (page.current === null) return;
      render();
      maybeEngineMove();
    });
    row.append(label, select);
    players.append(row);
  });
}

function fillSearcherOptions() {
  const container = $("searcher-options");
  container.replaceChildren();
  const searcher = page.catalogue.searchers[$("searcher-select").value];
  for (const option of searcher.options) optionInput(container, option, "searcher-option");
}

function playerIndex(name) {
  return page.catalogue.games[page.current.game].player_names.indexOf(name);
}

function isComputer(name) {
  const select = $(`player-${playerIndex(name)}`);
  return select !== null && select.value === "computer";
}

// ------------------------------------------------------------------- drawing
function buildBoard(board) {
  const element = $("board");
  element.replaceChildren();
  element.style.setProperty("--cols", board.cols);
  element.style.setProperty("--rows", board.rows);
  board.cells.forEach((cell, index) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "cell";
    button.dataset.index = index;
    button.addEventListener("click", () => cellClicked(index));
    button.addEventListener("keydown", (event) => moveFocus(event, index));
    element.append(button);
  });
  element.dataset.shape = `${board.rows}x${board.cols}`;
}

// Arrow keys move between cells: left and right in reading order (wrapping round the
// board), up and down by columns; Home and End go to the first and last cell.
function moveFocus(event, index) {
  const { rows, cols } = page.current.board;
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

function render() {
  const current = page.current;
  const names = page.catalogue.games[current.game].player_names;
  const board = current.board;
  $("board").hidden = board === null;
  $("text-board").hidden = board !== null;
  $("text-board").textContent = current.text;
  renderMoveList(board === null);
  if (board !== null) {
    if ($("board").dataset.shape !== `${board.rows}x${board.cols}`) buildBoard(board);
    const cells = $("board").children;
    const humanTurn = !current.is_over && !isComputer(current.to_move) && !page.busy;
    board.cells.forEach((cell, index) => {
      const button = cells[index];
      const row = Math.floor(index / board.cols) + 1;
      const col = (index % board.cols) + 1;
      const playable = cell.move !== null && humanTurn;
      button.textContent = cell.symbol;
      button.dataset.player = String(names.indexOf(cell.symbol));
      button.setAttribute("aria-label", `${cell.symbol || "empty"}, row ${row}, column ${col}`);
      button.setAttribute("aria-disabled", playable ? "false" : "true");
      button.classList.remove("hinted");
    });
  }
  $("board").setAttribute("aria-busy", page.busy ? "true" : "false");
  $("status").textContent = statusText();
  $("undo").disabled = page.history.length === 0;
  $("hint").disabled = current.is_over || page.busy;
  $("engine-move").disabled = current.is_over || page.busy;
}

// A game without a board view is shown as text, with one button per legal move.
function renderMoveList(shown) {
  const list = $("move-list");
  list.hidden = !shown;
  list.replaceChildren();
  if (!shown) return;
  const humanTurn = !page.current.is_over && !isComputer(page.current.to_move) && !page.busy;
  for (const move of humanTurn ? page.current.legal_moves : []) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Play ${move}`;
    button.addEventListener("click", () => playMove(move));
    list.append(button);
  }
}

function statusText() {
  const current = page.current;
  if (current.is_over) {
    return current.winner === null ? "Game over: a draw." : `Game over: ${current.winner} wins.`;
  }
  if (page.busy) return `${current.to_move} is thinking…`;
  return isComputer(current.to_move)
    ? `${current.to_move} to move (computer).`
    : `${current.to_move} to move (your turn).`;
}

// ------------------------------------------------------------------ playing
async function newGame(position) {
  showError(null);
  page.generation += 1;
  page.busy = false;
  const request = { game: $("game-select").value, options: readInputs($("game-options")) };
  try {
    page.current = position
      ? await api("/api/position", { ...request, position })
      : await api("/api/new", request);
  } catch (error) {
    showError(error);
    return;
  }
  page.history = [];
  $("analysis").textContent = "";
  clearTree();
  render();
  maybeEngineMove();
}

function cellClicked(index) {
  const move = page.current.board.cells[index].move;
  if (move !== null) playMove(move);
}

async function playMove(move) {
  const current = page.current;
  if (page.busy || page.playing || current.is_over || isComputer(current.to_move)) return;
  showError(null);
  page.playing = true;
  try {
    const next = await api("/api/play", positionRequest({ move }));
    page.playing = false;
    advance(next);
  } catch (error) {
    page.playing = false;
    showError(error);
  }
}

function advance(next) {
  page.history.push(page.current);
  page.current = next;
  clearTree();
  render();
  maybeEngineMove();
}

function maybeEngineMove() {
  const current = page.current;
  if (current && !current.is_over && !page.busy && isComputer(current.to_move)) engineMove();
}

async function engineMove() {
  if (page.busy || page.current.is_over) return;
  showError(null);
  page.busy = true;
  const generation = page.generation;
  render();
  try {
    const answer = await api("/api/move", searchRequest());
    if (generation !== page.generation) return;
    page.busy = false;
    const search = answer.search;
    $("analysis").textContent =
      `${search.to_move} played ${answer.move}: ${search.description} ` +
      `(${search.stats.nodes.toLocaleString("en")} nodes, ${search.stats.seconds.toFixed(3)} s).`;
    advance(answer.state);
  } catch (error) {
    if (generation !== page.generation) return;
    page.busy = false;
    render();
    showError(error);
  }
}

function undo() {
  if (page.history.length === 0) return;
  page.generation += 1;
  page.busy = false;
  // Take back moves until it is a human's turn again (the human's move and the reply).
  do {
    page.current = page.history.pop();
  } while (page.history.length > 0 && isComputer(page.current.to_move));
  showError(null);
  $("analysis").textContent = "";
  clearTree();
  render();
}

async function hint() {
  showError(null);
  try {
    const answer = await api("/api/analyze", searchRequest());
    $("analysis").textContent =
      `Hint for ${answer.to_move}: ${answer.best_moves.join(", ")} ` +
      `(${answer.description}; line ${answer.pv.join(" ")}).`;
    const cells = $("board").children;
    page.current.board?.cells.forEach((cell, index) => {
      cells[index].classList.toggle("hinted", cell.move === answer.move);
    });
  } catch (error) {
    showError(error);
  }
}

// ----------------------------------------------------------------- explorer
function clearTree() {
  page.tree = null;
  $("tree").replaceChildren();
  $("tree-summary").textContent = "";
  $("steps").hidden = true;
}

function bound(value, infinity) {
  return value === null ? infinity : String(value);
}

async function explore() {
  showError(null);
  const pruning = $("pruning").checked;
  let tree;
  try {
    tree = await api("/api/tree", searchRequest(pruning ? "alphabeta" : "minimax"));
  } catch (error) {
    clearTree();
    showError(error);
    return;
  }
  page.tree = tree;
  tree.shown = numberNodes(tree.root, 0);
  $("tree-summary").textContent =
    `${pruning ? "Alpha-beta" : "Minimax"} visited ${tree.nodes} nodes` +
    (pruning ? ` and cut off ${tree.pruned} ${tree.pruned === 1 ? "branch" : "branches"}` : "") +
    `; value ${tree.value}, best move ${tree.move}.`;
  page.step = tree.shown;
  $("steps").hidden = false;
  drawTree();
}

// Number the nodes in the order the search entered them (depth first); return the count.
function numberNodes(node, next) {
  node.step = next;
  let after = next + 1;
  for (const child of node.children) after = numberNodes(child, after);
  node.lastStep = after - 1;
  return after;
}

function drawTree() {
  const list = document.createElement("ul");
  list.className = "tree";
  list.append(treeItem(page.tree.root, null));
  $("tree").replaceChildren(list);
  $("step-count").textContent = `Node ${page.step} of ${page.tree.shown}`;
}

function valueText(node) {
  if (node.value === null) return "?";
  if (node.bound === "upper") return `≤ ${node.value}`;
  if (node.bound === "lower") return `≥ ${node.value}`;
  return String(node.value);
}

// The name of the player to move at a traced node ("first" or "second" in the trace).
function playerAt(node) {
  const names = page.catalogue.games[page.current.game].player_names;
  return names[node.to_move === "second" ? 1 : 0];
}

function treeItem(node, parent) {
  const item = document.createElement("li");
  const label = document.createElement("span");
  label.className = "node";
  const done = node.lastStep < page.step;
  item.hidden = node.step >= page.step;
  if (node.step === page.step - 1) label.classList.add("current");
  const move = parent === null ? `start, ${playerAt(node)} to move` : `${playerAt(parent)} plays ${node.move}`;
  const value = done ? valueText(node) : "…";
  label.textContent = `${move}: value ${value}  (α ${bound(node.alpha, "−∞")}, β ${bound(node.beta, "+∞")})`;
  item.append(label);
  const children = document.createElement("ul");
  for (const child of node.children) children.append(treeItem(child, node));
  for (const pruned of node.pruned) {
    const cut = document.createElement("li");
    cut.className = "node pruned";
    cut.textContent = `${playerAt(node)} plays ${pruned}: pruned`;
    cut.hidden = !done;
    children.append(cut);
  }
  if (children.childElementCount > 0) item.append(children);
  return item;
}

function setStep(step) {
  if (page.tree === null) return;
  page.step = Math.max(1, Math.min(page.tree.shown, step));
  drawTree();
}

// -------------------------------------------------------------------- start
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
  $("limits-note").textContent =
    `This server stops every search after ${limits.max_nodes.toLocaleString("en")} nodes ` +
    `or ${limits.seconds} s, and draws trees of up to ${limits.tree_nodes.toLocaleString("en")} nodes.`;
  // A link can name the game, its options and a position: /?game=tictactoe&position=X../.O./...
  const params = new URLSearchParams(window.location.search);
  if (params.get("game") in catalogue.games) $("game-select").value = params.get("game");
  fillGameOptions();
  for (const input of $("game-options").querySelectorAll("input")) {
    if (params.has(input.name)) input.value = params.get(input.name);
  }
  fillSearcherOptions();
  $("game-select").addEventListener("change", () => {
    fillGameOptions();
    newGame();
  });
  $("searcher-select").addEventListener("change", fillSearcherOptions);
  $("setup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    newGame();
  });
  $("new-game").addEventListener("click", () => newGame());
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("engine-move").addEventListener("click", engineMove);
  $("explore").addEventListener("click", explore);
  $("pruning").addEventListener("change", () => {
    if (page.tree !== null) explore();
  });
  $("step-first").addEventListener("click", () => setStep(1));
  $("step-back").addEventListener("click", () => setStep(page.step - 1));
  $("step-next").addEventListener("click", () => setStep(page.step + 1));
  $("step-all").addEventListener("click", () => setStep(page.tree.shown));
  await newGame(params.get("position"));
}

start();
