import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '#shared/constants.ts';
import { queryClient } from '#web/lib/query-client.ts';
import { routes } from '#web/routes.tsx';
import '#web/styles.css';

const router = createBrowserRouter(routes);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster duration={TOAST_DURATION_MS} visibleToasts={TOAST_MAX_VISIBLE} richColors closeButton theme="system" position="top-center" />
    </QueryClientProvider>
  </StrictMode>,
);
