import { SsogateError } from '../../core/index.js';

/**
 * The extension answered `{"error": {"code", "message"}}`: it did its work
 * and reports why it could not finish. Its code and message are the
 * extension's own, kept apart from the gateway's code.
 */
export class ExtensionAnswerError extends SsogateError<'extension_error'> {
  readonly extensionCode: string;
  readonly extensionMessage: string;

  constructor(route: string, extensionCode: string, extensionMessage: string) {
    super(
      'extension_error',
      `the extension's ${route} answered ${extensionCode}: ${extensionMessage}`,
    );
    this.extensionCode = extensionCode;
    this.extensionMessage = extensionMessage;
  }
}
