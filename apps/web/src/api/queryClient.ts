import { ApiError } from '@atende/sdk';
import { QueryClient } from '@tanstack/react-query';

const isClientError = (error: Error) => error instanceof ApiError && error.status >= 400 && error.status < 500;

/**
 * Server state: failed calls retry after a random 1-3 s delay; a 4xx is an answer,
 * not a failure, so it is not retried. Mutations are never retried automatically.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failures, error) => failures < 2 && !isClientError(error),
        retryDelay: () => 1000 + Math.random() * 2000,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}
