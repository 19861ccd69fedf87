<script>
window.addEventListener("load", () => {
  const vw = window.innerWidth, vh = window.innerHeight, out = {vw, vh, problems: []};
  const s = document.getElementById("summary").getBoundingClientRect();
  out.summary_top = s.top; out.summary_bottom = s.bottom;
  document.querySelectorAll("details").forEach(d => { d.open = true; });
  out.page_width = document.documentElement.scrollWidth;
  const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  for (const d of document.querySelectorAll(".scroll")) {
    if (shown(d) && d.scrollWidth > d.clientWidth + 1)
      out.problems.push("table wider than its column: " + d.scrollWidth + " > " + d.clientWidth + ": " + d.innerText.slice(0, 60));
  }
  for (const img of document.querySelectorAll("img")) {
    if (!shown(img)) continue;
    const px = parseFloat(img.dataset.minFontPx || "0") * img.clientWidth / img.naturalWidth;
    if (!(px >= 10)) out.problems.push("picture text " + px.toFixed(1) + " px: " + img.alt);
  }
  for (const e of document.querySelectorAll("p, td, th, li, code, figcaption, summary, h1, h2, h3, pre, a")) {
    if (!shown(e) || !e.textContent.trim()) continue;
    const fs = parseFloat(getComputedStyle(e).fontSize);
    if (fs < 10) out.problems.push("text " + fs + " px: " + e.textContent.slice(0, 40));
  }
  out.images = document.querySelectorAll("img").length;
  out.tables = document.querySelectorAll("table").length;
  const pre = document.createElement("pre"); pre.id = "metrics";
  pre.textContent = JSON.stringify(out); document.body.appendChild(pre);
});
</script>
