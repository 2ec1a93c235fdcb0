/**
 * Monaco from the LOCAL package with its own workers: never the CDN. This
 * module is only reached through React.lazy (MonacoEditors.tsx), so the editor's code loads when a
 * configurator opens an SQL, JSON or diff view, never with the app.
 */
import * as monaco from 'monaco-editor';
import { loader } from '@monaco-editor/react';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    return label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

loader.config({ monaco });

export { monaco };
