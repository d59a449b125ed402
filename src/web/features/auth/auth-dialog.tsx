/** The sign-in dialog: titled as a welcome, with the Sign In / Sign Up tabs. */
import { Dialog, type DialogState } from '#web/components/ui/dialog.tsx';
import { AuthForm, type AuthMode } from '#web/features/auth/auth-form.tsx';

export function AuthDialog({
  open,
  onOpenChange,
  initialMode = 'signin',
  onSignedIn,
  next,
}: DialogState & { initialMode?: AuthMode; onSignedIn?: () => void; next?: string | null }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Welcome to Harbour Mind" description="Sign in or create an account to continue.">
      <div className="mt-6">
        <AuthForm
          initialMode={initialMode}
          next={next}
          onSignedIn={() => {
            onOpenChange(false);
            onSignedIn?.();
          }}
        />
      </div>
    </Dialog>
  );
}
