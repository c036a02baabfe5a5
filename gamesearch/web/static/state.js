// What every module of the board page shares: the page's state and a few small helpers.
//
// The server keeps no game state: this page keeps the game record (every position
// reached, as the game's text, and the move that led to it) and sends the position
// with every request.

export const $ = (id) => document.getElementById(id);
export const SVG_NS = "http://www.w3.org/2000/svg";

// How the trace and the set-up call the players by their turn.
export const SEATS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];

// Readable searcher names for the page's sentences.
export const SEARCHER_NAMES = {
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
  engine: "The engine",
  expectiminimax: "Expectiminimax",
  star1: "Star1",
  star2: "Star2",
  "chance-iterative": "Iterative deepening with chance",
  "textbook-minimax": "Textbook minimax",
  "textbook-alphabeta": "Textbook alpha-beta",
  table: "Perfect play from the solution table",
};

export const page = {
  catalogue: null, // GET /api/games
  record: { states: [], moves: [], index: 0, fromStart: true }, // the game record
  busy: false, // an engine move is being searched
  playing: false, // a move of the human's is on its way to the server
  generation: 0, // bumped whenever the position changes, so late answers are ignored
  analysis: null, // {position, data, budget} of the move values shown on the board
  preview: null, // a position from the search tree shown on the board instead of the game
  previewText: "",
  drawn: null, // {shape, symbols} of the board as last drawn (for the dropping disc)
  tree: null, // the explorer's tree (see explorer.js)
  loading: false, // the moves of a link are being replayed
  selected: null, // the cell of the piece picked for a move of two clicks (a board view's paths)
  choices: null, // the moves from the picked piece to the clicked cell, when more than one goes there
};

// The position of the game record being shown.
export function current() {
  return page.record.states[page.record.index];
}

// The catalogue's entry of the game of `state` (its options, rules, look, players).
export function gameEntry(state) {
  return page.catalogue.games[state.game];
}

export function playerNames(state) {
  return gameEntry(state).player_names;
}

export function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  return element;
}

export function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

// A value of the API in a short form: a fraction ("3367/7200") as a decimal.
export function shortValue(value) {
  if (typeof value === "string" && /^-?\d+\/\d+$/.test(value)) {
    const [numerator, denominator] = value.split("/").map(Number);
    const decimal = numerator / denominator;
    if (decimal === 0) return "0.00";
    return decimal.toFixed(2);
  }
  return String(value);
}
