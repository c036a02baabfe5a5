// Pan and zoom of the search explorer's tree: drag, the wheel, the keys, and "Fit".

import { DX, DY, drawTree, setStep } from "./explorer.js";
import { showNode } from "./play.js";
import { $, page } from "./state.js";

export function screenPosition(node) {
  const { x, y, k } = page.tree.view;
  const dx = page.tree.dx || DX;
  return [(node.x * dx + dx / 2) * k + x, (node.y * DY + 30) * k + y];
}

export function applyView() {
  const { x, y, k } = page.tree.view;
  $("tree-layer").setAttribute("transform", `translate(${x} ${y}) scale(${k})`);
}

// The scale at which the whole tree fits the view.
function fittingScale(tree, width, height) {
  return Math.min(1.4, (width - 20) / tree.width, (height - 20) / (tree.height + 20));
}

// "Fit": the whole tree in the view, centred.
export function fitTree() {
  const tree = page.tree;
  const view = $("tree-view");
  const width = view.clientWidth || 800, height = view.clientHeight || 460;
  const k = Math.max(0.05, fittingScale(tree, width, height));
  tree.view = { k, x: (width - tree.width * k) / 2, y: 10 };
  applyView();
}

// The first view of a tree: the whole tree if it is readable so, else the top of it at
// a readable scale, centred on the principal variation (the best line).
export function initialView() {
  const tree = page.tree;
  const view = $("tree-view");
  const width = view.clientWidth || 800, height = view.clientHeight || 460;
  const k = Math.max(0.7, fittingScale(tree, width, height));
  if (tree.width * k <= width) {
    tree.view = { k, x: (width - tree.width * k) / 2, y: 10 };
  } else {
    const line = tree.nodes.filter((node) => node.isPv && node.x !== undefined);
    const xs = (line.length ? line : [tree.nodes[0]]).map((node) => (node.x + 0.5) * tree.dx);
    const middle = (Math.min(...xs) + Math.max(...xs)) / 2;
    tree.view = { k, x: width / 2 - middle * k, y: 10 };
  }
  applyView();
}

export function zoom(factor, cx, cy) {
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

export function keepInView(node) {
  const view = $("tree-view");
  const [sx, sy] = screenPosition(node);
  const margin = 40;
  if (sx < margin || sx > view.clientWidth - margin || sy < margin || sy > view.clientHeight - margin) {
    page.tree.view.x += view.clientWidth / 2 - sx;
    page.tree.view.y += view.clientHeight / 2 - sy;
  }
}

export function setUpPanZoom() {
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
