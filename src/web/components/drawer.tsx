/**
 * On a narrow screen (a phone, a tablet upright) the conversation list is a drawer over the page: a
 * Conversations button opens it, Esc, its Close button, the backdrop or a choice in it closes it. Wide,
 * the list is a column beside the conversation and neither button shows (styles.css decides).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';

export const DRAWER_ID = 'conversation-drawer';

export interface Drawer {
  open: boolean;
  toggle(): void;
  close(): void;
}

export function useDrawer(): Drawer {
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const toggle = useCallback(() => setOpen((now) => !now), []);
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    // Focus goes into the drawer (its first control), and back to the button when it closes.
    document.querySelector<HTMLElement>(`#${DRAWER_ID} button`)?.focus();
    return () => {
      document.removeEventListener('keydown', onKey);
      document.querySelector<HTMLElement>('.drawer-toggle')?.focus();
    };
  }, [open]);
  return { open, toggle, close };
}

/** The button that opens the list on a narrow screen. */
export function DrawerToggle({ drawer }: { drawer: Drawer }) {
  return (
    <div class="drawer-bar">
      <button
        type="button"
        class="drawer-toggle"
        aria-controls={DRAWER_ID}
        aria-expanded={drawer.open}
        onClick={drawer.toggle}
      >
        <span aria-hidden="true">☰</span> Conversations
      </button>
      <span class="drawer-brand">Cody</span>
    </div>
  );
}
