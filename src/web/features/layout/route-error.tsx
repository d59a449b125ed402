import RefreshCw from 'lucide-react/icons/refresh-cw';
import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { usePageTitle } from '#web/lib/use-page-title.ts';

/**
 * The app's error screen. The usual cause is a deploy: this tab still runs the previous build,
 * whose page chunks the server no longer has, so a lazy import fails. Reloading fetches the new
 * build; React's own behaviour would be an empty page.
 */
function RouteError({ error }: { error: unknown }) {
  usePageTitle();
  useEffect(() => {
    console.error('route failed to load', error);
  }, [error]);
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center px-4 text-center">
      <h1 className="text-2xl font-semibold text-stone-800 dark:text-stone-100">This page could not load.</h1>
      <p className="mt-3 text-stone-600 dark:text-stone-300">Reload to get the latest version.</p>
      <Button className="mt-8" onClick={() => window.location.reload()}>
        <RefreshCw className="size-4" aria-hidden /> Reload
      </Button>
    </main>
  );
}

type BoundaryProps = { children: ReactNode; /** A new value (the path, after navigating back) clears the error. */ resetKey: string };
type BoundaryState = { error: unknown; resetKey: string; failed: boolean };

/** Catches a page that throws or a page chunk that fails to load, and shows RouteError instead. */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { error: null, resetKey: this.props.resetKey, failed: false };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { resetKey: props.resetKey, error: null, failed: false };
  }

  componentDidCatch(_error: unknown, info: ErrorInfo): void {
    console.error('component stack', info.componentStack);
  }

  render(): ReactNode {
    return this.state.failed ? <RouteError error={this.state.error} /> : this.props.children;
  }
}
