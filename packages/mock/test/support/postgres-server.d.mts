export function startPostgresServer(options?: { durable?: boolean }): Promise<{
  url: string;
  port: number;
  socketDir: string;
  stop(): void;
  /** Stops the server (fast shutdown), keeping its data and port. */
  halt(): void;
  /** Starts a halted server again. */
  resume(): void;
}>;
