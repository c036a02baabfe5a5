// The search explorer: the tree the set-up's searcher walks from the current position,
// drawn node by node in the order the search visited them, folded where it is big.

import { api, budgetWords, searcherHas, searchRequest } from "./api.js";
import { applyView, fitTree, initialView, keepInView, screenPosition } from "./panzoom.js";
import { backToGame, showNode } from "./play.js";
import { $, current, page, playerNames, SEARCHER_NAMES, SEATS, shortValue, showError, svgElement } from "./state.js";

export const DX = 50; // the least horizontal room per leaf of the drawn tree, in pixels at scale 1
export const DY = 84; // vertical distance between plies
const CHAR_WIDTH = 6.8; // the width of a character of the node labels (11 px monospace)
const COLLAPSE_OVER = 150; // trees with more nodes start folded below the second ply

export function clearTree() {
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

export async function explore() {
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
  let data, used = request, note = "";
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
        used = { ...request, searcher_options: options };
        data = await api("/api/tree", used);
        depth = tried;
      } catch (deeper) {
        used = { ...request, searcher_options: { ...request.searcher_options, depth: String(depth) } };
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
  const tree = { data, nodes: [], selected: null, collapsed: new Set(), view: { x: 0, y: 0, k: 1 }, dx: DX };
  page.tree = tree;
  prepareTree(tree, data.root);
  const name = SEARCHER_NAMES[data.searcher] || data.searcher;
  const budget = budgetWords(used, { depth: false });
  const pruned = data.pruned ? ` and cut off ${data.pruned.toLocaleString("en")} ${data.pruned === 1 ? "branch" : "branches"}` : "";
  const drawn = tree.nodes.length === data.nodes ? "" : ` (the tree drawn is its last iteration, ${tree.nodes.length} nodes)`;
  const reached = data.depth ? ` Its search reached depth ${data.depth}${budget ? `, ${budget}` : ""}; ` +
    "a search with another budget (the Hint's, say, which has the computer's time) may value the position otherwise." : "";
  $("tree-summary").textContent =
    `${name} visited ${data.nodes.toLocaleString("en")} nodes${pruned}${drawn}; ` +
    `value ${shortValue(data.value)}, best move ${data.move}.${reached}${note}`;
  tree.step = tree.nodes.length;
  $("steps").hidden = false;
  $("tree-view").hidden = false;
  layoutTree(tree);
  initialView();
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

// The room a leaf needs: wide enough that no two labels of one level touch (a move is
// written left of its node, a value inside it).
function leafRoom(tree) {
  let widest = 0;
  for (const node of tree.nodes) {
    const move = node.parent ? String(node.move).length * CHAR_WIDTH + 28 : 0;
    const value = valueText(node).length * CHAR_WIDTH + 12;
    widest = Math.max(widest, move, value);
    for (const cut of node.cuts) widest = Math.max(widest, String(cut.move).length * CHAR_WIDTH + 22);
  }
  return Math.max(DX, Math.ceil(widest));
}

// A tidy layered layout: leaves side by side, each parent centred over its children.
export function layoutTree(tree) {
  tree.dx = leafRoom(tree);
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
  tree.width = Math.max(1, next) * tree.dx;
  tree.height = (depth + 1) * DY;
}

function isShown(tree, node) {
  return node.cut ? node.parent.lastStep < tree.step : node.step < tree.step;
}

export function valueText(node) {
  if (node.value === null || node.value === undefined) return "?";
  const value = shortValue(node.value);
  if (node.bound === "upper") return `≤${value}`;
  if (node.bound === "lower") return `≥${value}`;
  return value;
}

function bound(value, infinity) {
  return value === null ? infinity : String(value);
}

// The name of the player to move at a traced node ("first", "second", ... in the trace).
function playerAt(node) {
  const names = playerNames(current());
  return names[Math.max(0, SEATS.indexOf(node.to_move))];
}

export function pathTo(node) {
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

export function describeNode(node) {
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

export function drawTree() {
  const tree = page.tree;
  const layer = $("tree-layer");
  layer.replaceChildren();
  const px = (node) => node.x * tree.dx + tree.dx / 2;
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

export function expandAll() {
  const tree = page.tree;
  if (!tree) return;
  tree.collapsed.clear();
  layoutTree(tree);
  fitTree();
  drawTree();
}

export function setStep(step) {
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
