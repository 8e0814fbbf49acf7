import { options } from 'preact';

/**
 * What `react-dom/client` is in the build, where the app renders with Preact
 * (vite.config.ts, docs/decisions/0026-preact-in-the-build.md): Preact's `createRoot`, plus
 * React's `autoFocus`. React focuses such a field when it is mounted; Preact only writes the
 * `autofocus` attribute, which the browser ignores once something has the focus, so the code
 * boxes of a dialog's next step would not get it and a keyboard user would type into nothing.
 */
export * from 'preact/compat/client';

const focusedOnce = new WeakSet<HTMLElement>();
const previousVnodeHook = options.vnode;
options.vnode = (vnode) => {
  if (typeof vnode.type === 'string' && (vnode.props as { autoFocus?: boolean }).autoFocus) {
    const ownRef = vnode.ref;
    // Refs are set once the element is in the document, before effects run: the same moment
    // React focuses, so dialogs see the focus already inside and leave it there.
    vnode.ref = (node: HTMLElement | null) => {
      if (node && !focusedOnce.has(node)) {
        focusedOnce.add(node);
        node.focus();
      }
      if (typeof ownRef === 'function') return ownRef(node);
      if (ownRef) ownRef.current = node;
    };
  }
  previousVnodeHook?.(vnode);
};
