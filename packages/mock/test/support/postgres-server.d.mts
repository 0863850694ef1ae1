export function startPostgresServer(options?: { durable?: boolean }): Promise<{ url: string; port: number; socketDir: string; stop(): void }>;
