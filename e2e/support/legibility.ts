/**
 * Test support for the browser suites: every visible text on a page whose contrast against what it sits on is below
 * WCAG AA (4.5:1, 3:1 for large text and for the Markdown syntax the live preview shows quietly). Shared by the themes
 * suite and the suites that screenshot their own screens in both themes.
 */
import type { Page } from "@playwright/test";

export interface Illegible {
  text: string;
  color: string;
  background: string;
  ratio: number;
}

/** Every visible text on the page whose contrast against its background is below WCAG AA. */
export async function illegibleTexts(page: Page): Promise<Illegible[]> {
  return page.evaluate(() => {
    type Rgba = [number, number, number, number];
    const parse = (value: string): Rgba | null => {
      const m = /rgba?\(([^)]+)\)/.exec(value);
      if (!m) return null;
      const parts = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
    };
    const over = (top: Rgba, below: Rgba): Rgba => {
      const a = top[3] + below[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const mix = (i: number) => (top[i]! * top[3] + below[i]! * below[3] * (1 - top[3])) / a;
      return [mix(0), mix(1), mix(2), a];
    };
    const luminance = ([r, g, b]: Rgba) => {
      const channel = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    /** What an element's text sits on: its own and its ancestors' background colours, composited; null over an image. */
    const backgroundOf = (element: Element): Rgba | null => {
      const layers: Rgba[] = [];
      for (let node: Element | null = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.backgroundImage !== "none") return null;
        const color = parse(style.backgroundColor);
        if (color && color[3] > 0) {
          layers.push(color);
          if (color[3] === 1) break;
        }
      }
      let result: Rgba = [255, 255, 255, 1];
      for (const layer of layers.reverse()) result = over(layer, result);
      return result;
    };
    const inactive = (element: Element) => element.closest('[aria-disabled="true"], :disabled, [inert], .remote-caret') !== null;
    const found: Illegible[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      const element = node.parentElement;
      if (!text || !element || inactive(element)) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || style.visibility === "hidden" || element.closest("[hidden]")) continue;
      const color = parse(style.color);
      const background = backgroundOf(element);
      if (!color || !background) continue;
      const fg = over(color, background);
      const [lighter, darker] = [luminance(fg), luminance(background)].sort((a, b) => b - a) as [number, number];
      const ratio = (lighter + 0.05) / (darker + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const quietSyntax = element.closest(".cm-md-markup-dim, .cm-md-hr") !== null;
      if (ratio < (large || quietSyntax ? 3 : 4.5)) {
        found.push({ text: text.slice(0, 60), color: style.color, background: `rgb(${background.slice(0, 3).map(Math.round).join(", ")})`, ratio: Math.round(ratio * 100) / 100 });
      }
    }
    return found;
  });
}
