import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setTransport } from './api/client.js';
import { connectTransport } from './api/connect.js';
import { App } from './App.js';
import { platform } from './platform/browser.js';
import { startRouter } from './state/router.js';
import './styles.css';

setTransport(connectTransport());
startRouter();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 2_000 },
  },
});

createRoot(platform.rootElement()).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
