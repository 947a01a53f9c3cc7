import {BaseCommand} from '../../areas/command.js'
import {ExitCode, TillError} from '../../client/till-error.js'

/**
 * The published API (OpenAPI 2026-10) has no operation that lists OAuth2 clients: registration
 * (RFC 7591/7592) reaches one client by its id. Rather than call a path the service does not publish,
 * the command says so and names what works.
 */
export default class OAuth2ClientsList extends BaseCommand {
  static override summary = 'Not available: the API has no operation that lists OAuth2 clients.'
  static override description =
    'The service publishes OAuth2 client registration by client id only (oauth2-clients get, update, delete). Find a client id where the client was created (oauth2-clients create prints it) or in the dashboard.'
  static override examples = ['<%= config.bin %> oauth2-clients get CLIENT_ID']

  async run(): Promise<void> {
    await this.parseWithGlobals(OAuth2ClientsList)
    throw new TillError(
      "the service's API has no operation that lists OAuth2 clients; a client is reached by its id",
      ExitCode.error,
      'show one with: till oauth2-clients get CLIENT_ID (create prints the id)',
    )
  }
}
