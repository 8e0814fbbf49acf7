import { StrictMode, useState } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { Toaster } from '@/shared/ui/toaster';
import { AppRoutes } from './router';
import { createStore } from './store';

export function App() {
  const [store] = useState(createStore);
  return (
    <StrictMode>
      <Provider store={store}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
        <Toaster />
      </Provider>
    </StrictMode>
  );
}
