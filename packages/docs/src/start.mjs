// The "Start here" page, for integrators who have a hosted sandbox (`payroll-mock --hosted`):
// its address, a token with the client id and secret its operator gave them, what a username
// means there, the seeded ids to start from (generated from the seed), the Postman collection
// with Newman, and the limits with their refusals. Its samples use the site's sample address
// and token, which assets/sandbox-settings.js replaces with the reader's own.
import { escapeHtml, renderPage } from './layout.mjs';
import { HOSTED_RUN_USERNAME, POSTMAN_COLLECTIONS, postmanEnvironmentFile, RESET_REQUEST } from './postman.mjs';
import { API_BASES, SAMPLE_TOKEN, SANDBOX_ORIGIN, seededEntities } from './samples.mjs';

/** The token endpoint's path on a sandbox (`{auth_url}` is the address plus /auth). */
export const TOKEN_PATH = '/auth/token';

const code = (text) => `<code>${escapeHtml(text)}</code>`;
const table = (id, head, rows) => `<div class="table-scroll"><table id="${id}">
        <thead><tr>${head.map((cell) => `<th>${cell}</th>`).join('')}</tr></thead>
        <tbody>
          ${rows.map((cells) => `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('\n          ')}
        </tbody>
      </table></div>`;

/** The table's name of each kind of seeded entity. */
const KIND_NAMES = { provider: 'provider', employer: 'employer', payrollAdministration: 'payroll administration', wageModel: 'wage model' };

/**
 * The seeded entities an integrator starts from, above all those the contract gives no list
 * for (wage models): the rows of the sandbox's own list (GET /__sandbox/seeded-ids) over the
 * seed, the journal profiles beside their wage model. From the seed, so never out of date.
 */
export function seededIdRows(seed) {
  const entities = seededEntities(seed.collections);
  const names = new Map(entities.map((entity) => [entity.id, entity.name]));
  const sample = (entity) => (entity.sampleName ? ` <span class="muted">(the samples' ${escapeHtml(entity.sampleName)})</span>` : '');
  const what = (entity) => {
    if (entity.kind === 'payrollAdministration') {
      const wageModel = names.get(entity.wageModelId);
      return `${escapeHtml(entity.name)}, of ${escapeHtml(names.get(entity.employerId) ?? entity.employerId)}${wageModel ? `; wage model ${escapeHtml(wageModel)}` : ''}`;
    }
    if (entity.kind === 'wageModel') {
      const profiles = entities.filter((other) => other.kind === 'journalProfile' && other.wageModelId === entity.id);
      return `${escapeHtml(entity.name)}${profiles.length ? `; journal profile ${profiles.map((profile) => `${escapeHtml(profile.name)} ${code(profile.id)}`).join(', ')}` : ''}`;
    }
    return escapeHtml(entity.name);
  };
  return entities.filter((entity) => entity.kind in KIND_NAMES).map((entity) => [KIND_NAMES[entity.kind], code(entity.id), what(entity) + sample(entity)]);
}

/** The usernames a reader can log in with: any, or a seeded user of the authorization model. */
function usernameRows(model) {
  const rows = [[`any other username (${code('my-integration')}, ${code('ci-run-42')}, …)`, 'any', 'a user with every right, in a sandbox of its own']];
  for (const user of model?.users ?? []) rows.push([code(user.username), user.password ? code(user.password) : 'any', `${escapeHtml(user.role ?? '')}: ${escapeHtml(user.description ?? '')}`]);
  return rows;
}

/** The Start here page. `model` is the sandbox's authorization model (readAuthorizationModel). */
export function startPage(seed, model) {
  const origin = SANDBOX_ORIGIN;
  const payrollBase = `${origin}${API_BASES.payroll}`;
  const employer = seed.ids.employer;
  const body = `<h1>Start here</h1>
      <p class="lead">For integrators who have a <strong>hosted sandbox</strong>: its address, and a client id and secret from the sandbox's operator. Below: the address, a token, your first call, the ids to start from, the Postman collection with Newman, and the sandbox's limits.</p>
      <p class="callout" id="each-username-is-a-sandbox"><strong>Each username is a sandbox of its own.</strong> What you create belongs to the username you logged in with, within your client: log in with the same username to see it again. Another username starts from the seed, and nobody with another client ever sees your data.</p>

      <h2 id="address">1. The hosted sandbox's address</h2>
      <p>The operator gives you the address, such as <code>https://sandbox.example.nl</code>. Enter it here, and the token once you have one (step 2): every sample on this site, curl, TypeScript and Postman, then shows them, and the references' <em>Try it</em> calls that sandbox. Both are kept in this browser only.</p>
      <form class="sandbox-bar sandbox-settings" id="sandbox-settings" aria-label="Your sandbox">
        <label>Sandbox <input name="origin" type="url" required pattern="https?://.+" value="${escapeHtml(origin)}" size="28" spellcheck="false"></label>
        <label>Token <input name="token" type="text" required value="${escapeHtml(SAMPLE_TOKEN)}" size="24" spellcheck="false" autocomplete="off"></label>
        <button type="submit">Use</button>
        <output class="sandbox-target" aria-live="polite"></output>
      </form>
      <p>The payroll API's <code>{base_url}</code> is the address followed by <code>/v2</code> (<code>${escapeHtml(payrollBase)}</code>), and its paths begin with <code>/v2</code> again; the journal paths begin with <code>/journal</code>; the token endpoint <code>{auth_url}/token</code> is <code>${escapeHtml(origin + TOKEN_PATH)}</code>.</p>

      <h2 id="token">2. A token with your client credentials</h2>
      <p>A hosted sandbox accepts only tokens it issued itself: ask <code>POST ${TOKEN_PATH}</code> with your <strong>client credentials</strong>, the client id and client secret, and a username and password (the contract's password grant; the sandbox has the password and refresh token grants, not a <code>client_credentials</code> grant). A made-up token, or one from another sandbox, gets <code>401</code>, and the sandbox-only header <code>X-Sandbox-Authentication</code> says why.</p>
      <pre><code>curl -X POST ${escapeHtml(origin + TOKEN_PATH)} \\
  -d grant_type=password -d username=my-integration -d password=my-password \\
  -d client_Id=YOUR_CLIENT_ID -d client_secret=YOUR_CLIENT_SECRET</code></pre>
      <pre><code>{"access_token":"sandbox-at-…","token_type":"bearer","expires_in":3600,"refresh_token":"sandbox-rt-…","two_factor_state":"NotRequired"}</code></pre>
      <p>Send <code>access_token</code> as <code>Authorization: Bearer …</code> (put it in the bar above). It lasts <code>expires_in</code> seconds; then get another, or use the refresh token (refresh tokens rotate: use the one issued last):</p>
      <pre><code>curl -X POST ${escapeHtml(origin + TOKEN_PATH)} \\
  -d grant_type=refresh_token -d refresh_token=sandbox-rt-… \\
  -d client_Id=YOUR_CLIENT_ID -d client_secret=YOUR_CLIENT_SECRET</code></pre>
      <p>With <code>@payroll-api/client</code> a session does both and refreshes before the token runs out:</p>
      <pre><code>import { createPayrollClient, passwordGrant } from '@payroll-api/client';

const session = passwordGrant({
  authUrl: '${escapeHtml(origin)}/auth',
  clientId: process.env.SANDBOX_CLIENT_ID,
  clientSecret: process.env.SANDBOX_CLIENT_SECRET,
  username: 'my-integration',
  password: 'my-password',
});
const payroll = createPayrollClient({ baseUrl: '${escapeHtml(payrollBase)}', auth: session });</code></pre>
      <h3 id="usernames">What a username means here</h3>
      <p>The username chooses the sandbox (and, for the seeded users, the rights). The same username with another client is another sandbox.</p>
      ${table('usernames', ['username', 'password', 'who it is'], usernameRows(model))}
      <p>The seeded users show the contract's authorization refusals (<code>403</code>, see <a href="authorization.html">authorization</a>).</p>

      <h2 id="first-call">3. Your first call</h2>
      <pre><code>curl '${escapeHtml(payrollBase)}/v2/providers/employers/${escapeHtml(employer)}/employees?pageSize=10' \\
  -H 'Authorization: Bearer ${escapeHtml(SAMPLE_TOKEN)}' \\
  -H 'Accept: application/json;version=2021-03-29'</code></pre>
      <p>Every reference operation has curl and TypeScript samples and a <em>Try it</em> console that use your address and token: <a href="payroll.html">Payroll API</a>, <a href="journal.html">Journal API</a>. The <a href="index.html">guide</a> explains addresses, versions, filters, paging and errors.</p>

      <h2 id="seeded-ids">4. Ids to start from</h2>
      <p>Every sandbox starts from the same seed. The contract has no list of wage models, so take one from here; the other entities can also be listed through the API (employers of the user, administrations of an employer, journal profiles of a wage model).</p>
      ${table('seeded-id-table', ['entity', 'id', 'what it is'], seededIdRows(seed))}
      <p>Your sandbox lists the same entities, as it holds them now, at the sandbox-only control read <code>GET /__sandbox/seeded-ids</code> (not part of the contract; see the <a href="sandbox.html">sandbox page</a>):</p>
      <pre><code>curl '${escapeHtml(origin)}/__sandbox/seeded-ids' -H 'Authorization: Bearer ${escapeHtml(SAMPLE_TOKEN)}'</code></pre>

      <h2 id="postman">5. Postman and Newman</h2>
      <p>Download a collection (<a href="${POSTMAN_COLLECTIONS.payroll}" download>payroll</a>, <a href="${POSTMAN_COLLECTIONS.journal}" download>journal</a>) and the <a href="${postmanEnvironmentFile('hosted')}" download>hosted environment</a>. The environment has no token: set its address and your client credentials, and the collection gets a token itself before the first request (and again when it runs out).</p>
      <pre><code>sandboxUrl    ${escapeHtml(origin)}
clientId      YOUR_CLIENT_ID
clientSecret  YOUR_CLIENT_SECRET
username      ${HOSTED_RUN_USERNAME}
password      ${HOSTED_RUN_USERNAME}</code></pre>
      <p><strong>What a run does to the sandbox, up front:</strong> a run is one sandbox, that of its username (<code>${HOSTED_RUN_USERNAME}</code> by default, not the one you use by hand). In each folder reads come first and deletes last, a delete removes what its folder created in the run, and the last request, <code>${RESET_REQUEST}</code>, resets that sandbox to the seed. So a run passes from a fresh sandbox and leaves it as a fresh one is. Set <code>username</code> to your own and the run resets your sandbox at its end.</p>
      <h3 id="newman">Newman, locally and in CI</h3>
      <pre><code>npm install --save-dev newman
npx newman run payroll.postman_collection.json -e hosted.postman_environment.json \\
  --env-var sandboxUrl=${escapeHtml(origin)} \\
  --env-var clientId=$SANDBOX_CLIENT_ID --env-var clientSecret=$SANDBOX_CLIENT_SECRET</code></pre>
      <p>In CI keep the client id and secret in the CI's secrets and pass them with <code>--env-var</code>, never in the environment file. Give each pipeline its own <code>username</code> (<code>--env-var username=ci-$BUILD_ID</code>) so parallel runs never share a sandbox. Newman exits non-zero when an assertion fails; <code>--reporters cli,junit --reporter-junit-export results.xml</code> writes a report CI systems read. A GitHub Actions step:</p>
      <pre><code>- name: Postman collection against the hosted sandbox
  run: |
    npx newman run payroll.postman_collection.json -e hosted.postman_environment.json \\
      --env-var sandboxUrl=${escapeHtml(origin)} \\
      --env-var clientId=\${{ secrets.SANDBOX_CLIENT_ID }} --env-var clientSecret=\${{ secrets.SANDBOX_CLIENT_SECRET }} \\
      --env-var username=ci-\${{ github.run_id }} --reporters cli,junit --reporter-junit-export newman.xml</code></pre>

      <h2 id="limits">Limits and their refusals</h2>
      <p>A hosted sandbox is shared, so it limits what one integrator can do. These are the defaults; the operator may set others.</p>
      ${table('limits', ['limit', 'default', 'beyond it'], [
        ['requests per second, per token', '100 (a burst of one second passes)', `${code('429')} with ${code('Retry-After')} (seconds) and the error envelope naming the limit: wait, then retry`],
        ['entities one sandbox holds', '100,000 (the seed is about 1,200)', `${code('400')} naming the limit; the write applies nothing`],
        ['bytes of uploaded photos and logos in one sandbox', '50 MiB', `${code('400')} naming the limit; nothing is stored`],
        ['one request body', '5 MiB', code('413')],
        ['a sandbox nobody writes to', 'removed after 30 days without a write', 'it reads the seed again'],
        ['a token', `${code('expires_in')} seconds (3600)`, `${code('401')}: get a new token`],
      ])}

      <h2 id="start-again">Start again</h2>
      <p>Your sandbox back to the seed, or saved and restored (the <a href="sandbox.html#reset-and-snapshots">sandbox page</a> has every control endpoint):</p>
      <pre><code>curl -X POST ${escapeHtml(origin)}/__sandbox/reset -H 'Authorization: Bearer ${escapeHtml(SAMPLE_TOKEN)}'
curl ${escapeHtml(origin)}/__sandbox/snapshot -H 'Authorization: Bearer ${escapeHtml(SAMPLE_TOKEN)}' > my-state.json</code></pre>`;
  return renderPage({ id: 'start', title: 'Start here', body });
}
