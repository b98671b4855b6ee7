import { defineErrors } from '../../lib/error-catalog.js';

/**
 * The codes the server itself may answer any tool call with, whatever its domain: invalid arguments, a body or
 * request it cannot read, access, sessions, idempotency, and its own failures. The domains' codes are in
 * domains/<domain>/errors.ts, the hazards' in hazards/errors.ts.
 */
export const SERVER_ERRORS = defineErrors({
  invalid_input: { status: 400, meaning: "The arguments do not match the tool's schema: `errors` names each field and what it expected." },
  malformed_json: { status: 400, meaning: 'The body is not valid JSON: send the arguments as one JSON object.' },
  empty_json_body: { status: 400, meaning: 'The body is empty although Content-Type is application/json: send {} for a call without arguments.' },
  json_too_deep: { status: 400, meaning: 'The JSON body is nested deeper than the limit (`limit`): flatten it.' },
  forbidden_json_key: { status: 400, meaning: 'The JSON body has a "__proto__" or "constructor.prototype" key: rename or remove it.' },
  invalid_content_length: { status: 400, meaning: 'Content-Length is not a valid length or does not match the body: send the body whole.' },
  invalid_session_id: {
    status: 400,
    meaning: "The session id (path or X-Session-Id) has other characters than letters, digits, '.', '_' or '-', or is over 64.",
  },
  invalid_host: { status: 400, meaning: 'The Host header is not a host name or address with an optional port.' },
  bad_url: { status: 400, meaning: 'The URL does not decode (a bad percent-encoded sequence) or is not a path.' },
  bad_request: { status: 400, meaning: 'The request could not be read (the detail says why).' },
  malformed_request: { status: 400, meaning: 'The request is not valid HTTP/1.1.' },
  unauthorized: { status: 401, meaning: 'The server has API_TOKEN set: send Authorization: Bearer <API_TOKEN>.' },
  invalid_token: { status: 401, meaning: "The bearer token is not the server's API_TOKEN or ADMIN_TOKEN." },
  host_not_allowed: {
    status: 403,
    meaning: 'The Host is not loopback nor in ALLOWED_HOSTS while no API_TOKEN is set: add it to ALLOWED_HOSTS, or set API_TOKEN.',
  },
  request_timeout: { status: 408, meaning: 'The request was not received whole in time: send it again.' },
  already_answered: { status: 409, meaning: "submit_answer: every request of the session's task is answered; create a new session to run it again." },
  body_too_large: { status: 413, meaning: 'The body is larger than 1 MiB: send less.' },
  url_too_long: { status: 414, meaning: 'A segment of the URL is longer than 100 characters: shorten it.' },
  unsupported_media_type: { status: 415, meaning: 'Send the arguments as a JSON object with Content-Type: application/json.' },
  misdirected_session: { status: 421, meaning: 'The session belongs to another replica: send its requests through the load balancer, naming the session.' },
  idempotency_key_reused: {
    status: 422,
    meaning: 'A write: the idempotency_key was used for another request or other arguments; use a new key for a new operation.',
  },
  headers_too_large: { status: 431, meaning: 'The request line and headers are larger than 16 KiB: shorten the URL or the headers.' },
  internal_error: { status: 500, meaning: 'A bug of the server, logged: report it; the call may be retried.' },
  session_limit: { status: 503, meaning: 'No session can be created (MAX_SESSIONS): delete finished sessions, or retry after Retry-After seconds.' },
  persistence_failed: { status: 503, meaning: 'The change could not be written to DATA_DIR, so it was not made: check the disk, then retry.' },
  session_damaged: { status: 503, meaning: "The session's saved data cannot be read back: the detail says where; the operator must repair or delete it." },
});
