import './setup';
import { useEffect, useRef } from 'react';
import Editor, { DiffEditor, type OnMount } from '@monaco-editor/react';

type StandaloneEditor = Parameters<OnMount>[0];

/**
 * Monaco kept in step with the designer's state without fighting the typist: the editor owns the
 * text while it is being edited; a change from outside (undo, another panel) is written in only
 * when it is not an echo of what the editor itself reported. With `commitOnBlur` the text is
 * handed over when the editor loses focus (the whole-definition JSON, which is re-formatted).
 */
function ControlledMonaco({
  value,
  onChange,
  language,
  height,
  testId,
  commitOnBlur = false,
}: {
  value: string;
  onChange: (next: string) => void;
  language: string;
  height: number;
  testId: string;
  commitOnBlur?: boolean;
}) {
  const editorRef = useRef<StandaloneEditor | null>(null);
  // Texts the editor reported that the designer's state has not echoed back yet: React may
  // render an older one while the typist is ahead, and that must not be written back.
  const pending = useRef<string[]>([]);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const valueRef = useRef(value);
  valueRef.current = value;

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const echoed = pending.current.indexOf(value);
    if (echoed >= 0) {
      pending.current.splice(0, echoed + 1);
      return;
    }
    if (value === editor.getValue()) {
      pending.current = [];
      return;
    }
    if (commitOnBlur && editor.hasTextFocus()) return;
    pending.current = [];
    editor.setValue(value);
  }, [value, commitOnBlur]);

  const report = (editor: StandaloneEditor) => {
    const text = editor.getValue();
    pending.current.push(text);
    onChangeRef.current(text);
  };

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    editor.onDidChangeModelContent(() => {
      if (!commitOnBlur) report(editor);
    });
    editor.onDidBlurEditorText(() => {
      if (commitOnBlur && editor.getValue() !== valueRef.current) report(editor);
    });
  };

  return (
    <div data-testid={testId} style={{ border: '1px solid #d9d9d9' }}>
      <Editor
        height={height}
        language={language}
        defaultValue={value}
        onMount={onMount}
        options={{ minimap: { enabled: false }, fontSize: 13, scrollBeyondLastLine: false, wordWrap: 'on', automaticLayout: true }}
      />
    </div>
  );
}

/** The SQL editor: PostgreSQL text with highlighting, as the designer's named SQL. */
export function SqlEditor({ value, onChange, height = 220 }: { value: string; onChange: (next: string) => void; height?: number }) {
  return <ControlledMonaco value={value} onChange={onChange} language="sql" height={height} testId="designer-sql-editor" />;
}

/** The whole definition as JSON (for those who prefer text); applied when it parses, on leaving the editor. */
export function JsonEditor({ value, onChange, height = 480 }: { value: string; onChange: (next: string) => void; height?: number }) {
  return <ControlledMonaco value={value} onChange={onChange} language="json" height={height} testId="designer-json-editor" commitOnBlur />;
}

/** Side-by-side diff of two versions' canonical JSON. */
export function JsonDiff({ left, right, height = 480 }: { left: string; right: string; height?: number }) {
  return (
    <div data-testid="designer-diff-editor" style={{ border: '1px solid #d9d9d9' }}>
      <DiffEditor
        height={height}
        language="json"
        original={left}
        modified={right}
        options={{ readOnly: true, renderSideBySide: true, minimap: { enabled: false }, fontSize: 12, automaticLayout: true }}
      />
    </div>
  );
}

export default { SqlEditor, JsonEditor, JsonDiff };
