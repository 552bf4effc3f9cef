/**
 * The transcript's strip above the stage shows whole rows only: as many of the last rows as fit
 * in its room (the height the stylesheet gives it), else the last one alone (the card's waiting row, as
 * a rule), never a cut-off piece of one. Measured when the rows or the pane change size.
 */
import { useLayoutEffect, type RefObject } from 'react';

/** The most the last row alone may take when it is taller than the strip's room, in pixels. */
const LAST_ROW_LIMIT_PX = 120;

function fit(strip: HTMLElement, scroller: HTMLElement): void {
  strip.style.height = '';
  const room = strip.getBoundingClientRect().height;
  const items = [...scroller.querySelectorAll<HTMLElement>('[data-index]')].sort(
    (a, b) => Number(b.dataset.index) - Number(a.dataset.index),
  );
  let whole = 0;
  for (const item of items) {
    const height = item.getBoundingClientRect().height;
    if (whole + height > room + 0.5) {
      break;
    }
    whole += height;
  }
  const last = items[0]?.getBoundingClientRect().height ?? room;
  const height = whole > 0 ? whole : Math.min(last, Math.max(room, LAST_ROW_LIMIT_PX));
  const shown = `${Math.ceil(height)}px`;
  strip.style.height = shown;
}

/** Sizes `strip` (the transcript) to whole rows of `scroller` while `staged`. */
export function useStripFit(
  strip: RefObject<HTMLElement | null>,
  scroller: RefObject<HTMLElement | null>,
  staged: boolean,
): void {
  useLayoutEffect(() => {
    const element = strip.current;
    if (!element) {
      return undefined;
    }
    if (!staged) {
      element.style.height = '';
      return undefined;
    }
    const update = () => {
      if (scroller.current) {
        fit(element, scroller.current);
      }
    };
    update();
    const observer = new ResizeObserver(update);
    if (element.parentElement) {
      observer.observe(element.parentElement);
    }
    // The list of rows, whose height changes with theirs.
    const list = scroller.current?.querySelector('[data-index]')?.parentElement;
    if (list) {
      observer.observe(list);
    }
    return () => {
      observer.disconnect();
      element.style.height = '';
    };
  }, [strip, scroller, staged]);
}
