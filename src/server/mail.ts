/**
 * Outgoing mail: SMTP through nodemailer when SMTP_URL is set, otherwise .eml files in
 * DATA_DIR/outbox (inspectable locally). Logs name the file, never the link: links carry tokens.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/** `headers`: extra header lines (a reminder's List-Unsubscribe, RFC 8058). */
export type MailMessage = { to: string; subject: string; text: string; html: string; headers?: Record<string, string> };
export type Mailer = { send(message: MailMessage): Promise<{ outboxFile?: string }>; kind: 'smtp' | 'outbox' };

type Log = { info(obj: object, msg: string): void };

export function createMailer({ smtpUrl, from, outboxDir, log }: { smtpUrl?: string; from: string; outboxDir: string; log: Log }): Mailer {
  if (smtpUrl) {
    const transport = nodemailer.createTransport(smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    return {
      kind: 'smtp',
      async send(message) {
        await transport.sendMail({ from, ...message, headers: prepared(message.headers) });
        log.info({ to: maskEmail(message.to), subject: message.subject }, 'mail sent');
        return {};
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail({ from, ...message, headers: prepared(message.headers) });
      await mkdir(outboxDir, { recursive: true });
      const file = join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ to: maskEmail(message.to), subject: message.subject, file }, 'mail written to outbox (open the .eml file to follow its link)');
      return { outboxFile: file };
    },
  };
}

/**
 * Extra headers as written: nodemailer would otherwise fold or encode them, and a folded
 * List-Unsubscribe could break inside its address (RFC 2369 URLs carry no spaces to fold at).
 */
function prepared(headers: Record<string, string> | undefined): Record<string, { prepared: true; value: string }> | undefined {
  return headers && Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { prepared: true as const, value }]));
}

/** 'sam.jones@example.com' → 's***@example.com' for logs. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

const HTML_ESCAPES: Partial<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** A branded message with a single call to action, as plain text and simple HTML; `secondary`, a small link under the footer (a way to turn the mail off). */
export function brandedMail({ to, subject, greeting, body, action, footer, secondary }: { to: string; subject: string; greeting: string; body: string[]; action: { label: string; url: string }; footer: string; secondary?: { label: string; url: string } }): MailMessage {
  const text = [greeting, '', ...body.flatMap((p) => [p, '']), `${action.label}: ${action.url}`, '', footer, ...(secondary ? ['', `${secondary.label}: ${secondary.url}`] : []), '', '— Harbour Mind'].join('\n');
  const html = `<!doctype html><html><body style="margin:0;background:#f5f5f4;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#292524">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:24px;padding:32px" cellpadding="0" cellspacing="0">
<tr><td style="font-family:Georgia,serif;font-size:22px;font-weight:600;color:#0f766e;padding-bottom:24px">Harbour Mind</td></tr>
<tr><td style="font-size:16px;line-height:1.6"><p>${escapeHtml(greeting)}</p>${body.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}
<p style="padding:16px 0"><a href="${escapeHtml(action.url)}" style="background:#0f766e;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:999px;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#78716c">If the button does not work, copy this link into your browser:<br>${escapeHtml(action.url)}</p>
<p style="font-size:13px;color:#78716c">${escapeHtml(footer)}</p>${secondary ? `<p style="font-size:13px"><a href="${escapeHtml(secondary.url)}" style="color:#0f766e">${escapeHtml(secondary.label)}</a></p>` : ''}</td></tr></table></td></tr></table></body></html>`;
  return { to, subject, text, html };
}
