// The code editor of toolkit's paste box and playground: an anywidget front end over CodeMirror 6.
// Model traits (toolkit/widgets/_code.py): value, language (python | yaml | json), diagnostics
// ([{line, message, severity}], 1-based lines), placeholder, rows, debounce (ms of quiet before an edit is
// sent; leaving the editor sends it at once).
import { basicSetup } from "codemirror";
import { EditorView, keymap, placeholder } from "@codemirror/view";
import { Compartment, EditorState } from "@codemirror/state";
import { indentWithTab } from "@codemirror/commands";
import { indentUnit } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { yaml } from "@codemirror/lang-yaml";
import { json } from "@codemirror/lang-json";
import { lintGutter, setDiagnostics } from "@codemirror/lint";

const LANGUAGES = { python, yaml, json };

function languageOf(name) {
  const make = LANGUAGES[name] || LANGUAGES.python;
  return make();
}

function diagnosticsFor(doc, items) {
  const found = [];
  for (const item of items || []) {
    const number = Math.min(Math.max(1, item.line || 1), doc.lines);
    const line = doc.line(number);
    found.push({ from: line.from, to: line.to, severity: item.severity || "error", message: item.message || "" });
  }
  return found;
}

function render({ model, el }) {
  const language = new Compartment();
  const hint = new Compartment();
  let timer = null;
  let view = null;
  let applying = false; // a change that came from Python: not sent back
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    model.set("value", view.state.doc.toString());
    model.save_changes();
  };
  const send = () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(flush, model.get("debounce"));
  };
  const height = `${Math.max(3, model.get("rows")) * 1.45}em`;
  view = new EditorView({
    parent: el,
    state: EditorState.create({
      doc: model.get("value"),
      extensions: [
        basicSetup,
        keymap.of([indentWithTab]),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        language.of(languageOf(model.get("language"))),
        hint.of(placeholder(model.get("placeholder"))),
        lintGutter(),
        EditorView.updateListener.of((update) => {
          if (update.docChanged && !applying) send();
        }),
        // Leaving the editor (to press a button) sends the text at once, ahead of the click.
        EditorView.domEventHandlers({ blur: () => (timer !== null ? flush() : undefined) }),
        EditorView.theme({
          "&": { height: "100%", border: "1px solid var(--jp-border-color1, #ccc)", fontSize: "var(--jp-code-font-size, 13px)" },
          ".cm-scroller": { overflow: "auto", fontFamily: "var(--jp-code-font-family, monospace)" },
        }),
      ],
    }),
  });
  el.classList.add("tk-code-editor");
  el.style.height = height;
  const showDiagnostics = () =>
    view.dispatch(setDiagnostics(view.state, diagnosticsFor(view.state.doc, model.get("diagnostics"))));
  const onValue = () => {
    const text = model.get("value");
    if (timer === null && text !== view.state.doc.toString()) {
      applying = true;
      try {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      } finally {
        applying = false;
      }
    }
  };
  const onLanguage = () => view.dispatch({ effects: language.reconfigure(languageOf(model.get("language"))) });
  const onPlaceholder = () => view.dispatch({ effects: hint.reconfigure(placeholder(model.get("placeholder"))) });
  model.on("change:value", onValue);
  model.on("change:language", onLanguage);
  model.on("change:placeholder", onPlaceholder);
  model.on("change:diagnostics", showDiagnostics);
  showDiagnostics();
  return () => {
    model.off("change:value", onValue);
    model.off("change:language", onLanguage);
    model.off("change:placeholder", onPlaceholder);
    model.off("change:diagnostics", showDiagnostics);
    if (timer !== null) clearTimeout(timer);
    view.destroy();
  };
}

export default { render };
