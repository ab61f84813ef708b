// The runtime focuses the first field of every screen it shows. Inside the preview that would pull
// the keyboard focus out of the editor at each load and screen switch, so focus may enter the frame
// only by the owner's hand: a Tab into it, or a pointer press inside it. Any other entry is undone.
import { useEffect, type RefObject } from 'react';

export function useFrameFocusGuard(frameRef: RefObject<HTMLIFrameElement | null>): void {
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    let byHand = false;
    let lastOutside: HTMLElement | null = null;
    let release: number | undefined;
    const allowBriefly = () => {
      byHand = true;
      if (release !== undefined) cancelAnimationFrame(release);
      // Focus moves as the default action of the key or press, before the next frame.
      release = requestAnimationFrame(() => {
        byHand = false;
      });
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Tab') allowBriefly();
    };
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof HTMLElement && event.target !== frame) lastOutside = event.target;
    };
    const onWindowBlur = () => {
      // The window loses focus to the frame (or to another window); look once the move is done.
      setTimeout(() => {
        if (byHand || document.activeElement !== frame) return;
        if (lastOutside?.isConnected) lastOutside.focus({ preventScroll: true });
        else frame.blur();
      }, 0);
    };
    /** Presses inside the frame are the owner's: listen on each document the frame loads. */
    const watchFrameDocument = () => {
      frame.contentWindow?.addEventListener('pointerdown', allowBriefly, true);
    };
    watchFrameDocument();
    frame.addEventListener('load', watchFrameDocument);
    document.addEventListener('keydown', onKeyDown, true);
    document.addEventListener('focusin', onFocusIn);
    window.addEventListener('blur', onWindowBlur);
    return () => {
      if (release !== undefined) cancelAnimationFrame(release);
      frame.removeEventListener('load', watchFrameDocument);
      frame.contentWindow?.removeEventListener('pointerdown', allowBriefly, true);
      document.removeEventListener('keydown', onKeyDown, true);
      document.removeEventListener('focusin', onFocusIn);
      window.removeEventListener('blur', onWindowBlur);
    };
  }, [frameRef]);
}
