import { useEffect, useRef, useState } from 'react';

/** Narrow (a phone or a handheld) below 600 px, followed as the window is resized. */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.innerWidth < 600);
  useEffect(() => {
    const onResize = () => setNarrow(window.innerWidth < 600);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return narrow;
}

/**
 * The screen's keyboard shortcuts: every key pressed in the window goes to the handler of the
 * latest render (so it sees the screen's current state), for as long as the screen is shown.
 */
export function useWindowKeys(handler: (event: KeyboardEvent) => void): void {
  const keys = useRef(handler);
  keys.current = handler;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
