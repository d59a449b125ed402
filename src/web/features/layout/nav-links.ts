/** Navigation and footer links from the spec ('Screens and routes'). */
export const PRIMARY_NAV = [
  { to: '/meditations', label: 'Meditations' },
  { to: '/programmes', label: 'Programmes' },
  { to: '/journal', label: 'Journal' },
  { to: '/morning-routine', label: 'Morning Routine' },
  { to: '/evening-routine', label: 'Evening Routine' },
] as const;

export const FOOTER_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/why-i-created-harbour-mind', label: 'Why I Created Harbour Mind' },
  { to: '/morning-routine', label: 'Morning Routine' },
  { to: '/evening-routine', label: 'Evening Routine' },
  { to: '/meditations', label: 'Meditations' },
  { to: '/programmes', label: 'Programmes' },
  { to: '/journal', label: 'Journal' },
  { to: '/subscribe', label: 'Subscribe' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/terms', label: 'Terms of Service' },
  { to: '/cookies', label: 'Cookie Policy' },
  { to: '/support', label: 'Support' },
] as const;
