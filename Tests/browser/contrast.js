// The visible texts (and placeholders) below WCAG AA contrast against their background: 4.5:1,
// 3:1 for large text. Run by the browser tests (harness.Browser.low_contrast) as a function body.
const rgb = (s) => (s.match(/[\d.]+/g) || []).map(Number);
const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
function background(e) {
  for (let n = e; n; n = n.parentElement) { const c = rgb(getComputedStyle(n).backgroundColor); if (c.length === 3 || c[3] > 0) return c.slice(0, 3); }
  return [255, 255, 255];
}
const low = [];
for (const e of document.querySelectorAll("body *")) {
  if (!e.checkVisibility || !e.checkVisibility({ visibilityProperty: true })) continue;
  const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const placeholder = e.tagName === "INPUT" && e.placeholder && !e.value;
  if (!own && !placeholder) continue;
  const style = getComputedStyle(e, placeholder ? "::placeholder" : null);
  const a = lum(rgb(style.color).slice(0, 3)), b = lum(background(e));
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.66 && Number(style.fontWeight) >= 700);
  if (ratio < (large ? 3 : 4.5)) low.push([e.tagName, e.id || e.className, (e.textContent || e.placeholder).trim().slice(0, 20), ratio.toFixed(2)]);
}
return low;
