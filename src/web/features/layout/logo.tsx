/** The Harbour Mind mark: a low sun over two gentle waves. */
export function Logo({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden focusable="false">
      <rect width="64" height="64" rx="16" className="fill-teal-700 dark:fill-teal-500" />
      <circle cx="32" cy="22" r="8" fill="#fde68a" />
      <path d="M12 38c5 0 5-4 10-4s5 4 10 4 5-4 10-4 5 4 10 4" fill="none" stroke="#ccfbf1" strokeWidth="4" strokeLinecap="round" />
      <path d="M12 48c5 0 5-4 10-4s5 4 10 4 5-4 10-4 5 4 10 4" fill="none" stroke="#5eead4" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}
