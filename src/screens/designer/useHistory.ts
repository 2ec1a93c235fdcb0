import { useCallback, useState } from 'react';

interface History<T> {
  past: T[];
  present: T;
  future: T[];
}

const LIMIT = 200;

/** A value with undo and redo (the designer's edits); `reset` starts a new history. */
export function useHistory<T>(initial: T) {
  const [history, setHistory] = useState<History<T>>({ past: [], present: initial, future: [] });
  const set = useCallback((next: T | ((current: T) => T)) => {
    setHistory((h) => {
      const value = typeof next === 'function' ? (next as (current: T) => T)(h.present) : next;
      if (value === h.present) return h;
      return { past: [...h.past, h.present].slice(-LIMIT), present: value, future: [] };
    });
  }, []);
  const undo = useCallback(() => {
    setHistory((h) => (h.past.length ? { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] } : h));
  }, []);
  const redo = useCallback(() => {
    setHistory((h) => (h.future.length ? { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) } : h));
  }, []);
  const reset = useCallback((value: T) => setHistory({ past: [], present: value, future: [] }), []);
  return { value: history.present, set, undo, redo, reset, canUndo: history.past.length > 0, canRedo: history.future.length > 0 };
}
