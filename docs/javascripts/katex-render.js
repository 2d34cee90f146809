// Typeset the formulas arithmatex (generic mode) leaves as \( … \) and \[ … \] in .arithmatex elements,
// with the KaTeX vendored beside this file (no CDN: the docs must render offline).
(function () {
  "use strict";
  function render() {
    var maths = document.querySelectorAll(".arithmatex");
    for (var i = 0; i < maths.length; i++) {
      var tex = maths[i].textContent || maths[i].innerText;
      var display = tex.startsWith("\\[") && tex.endsWith("\\]");
      if (display || (tex.startsWith("\\(") && tex.endsWith("\\)"))) {
        katex.render(tex.slice(2, -2), maths[i], { displayMode: display, throwOnError: false });
      }
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", render);
  } else {
    render();
  }
})();
