// Secrets (tokens, passwords, client secrets) must never reach an error message or a log.
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.replaceAll(secret, '[redacted]');
  }
  return out.replace(/Bearer\s+[^\s"',;]+/gi, 'Bearer [redacted]');
}
