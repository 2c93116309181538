/**
 * OAuth device flow (web base), the signed-in user, organization memberships and App installations: the endpoints
 * sign-in, admission and repository binding use, in GitHub's documented shapes and error conventions (device-flow
 * errors are HTTP 200 with an `error` field, exactly as GitHub does it).
 */
import { notFound, ok, paged, repoJson, type Route } from "./http-types.js";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

const oauthError = (error: string, description: string, extra: Record<string, unknown> = {}) =>
  ok({ error, error_description: description, error_uri: "https://docs.github.com/developers/apps", ...extra });

export const authRoutes: Route[] = [
  {
    method: "POST",
    pattern: /^\/login\/device\/code$/,
    auth: false,
    handle(req, _m, state) {
      if (req.body.client_id !== state.fixtures.clientId) return { status: 404, json: { error: "Not Found" } };
      const d = state.startDevice();
      return ok({
        device_code: d.deviceCode,
        user_code: d.userCode,
        verification_uri: `${req.baseUrl}/login/device`,
        expires_in: state.fixtures.deviceExpiresInSeconds,
        interval: state.fixtures.deviceIntervalSeconds,
      });
    },
  },
  {
    method: "GET",
    pattern: /^\/login\/device$/,
    auth: false,
    handle: () => ({ status: 200, text: "Fake GitHub: device activation page", headers: { "content-type": "text/plain" } }),
  },
  {
    method: "POST",
    pattern: /^\/login\/oauth\/access_token$/,
    auth: false,
    handle(req, _m, state) {
      if (req.body.client_id !== state.fixtures.clientId) return oauthError("incorrect_client_credentials", "Unknown client id.");
      const tokenBody = (login: string) => {
        const t = state.issueTokens(login);
        return ok({
          access_token: t.accessToken,
          expires_in: t.expiresIn,
          refresh_token: t.refreshToken,
          refresh_token_expires_in: t.refreshExpiresIn,
          token_type: "bearer",
          scope: "",
        });
      };
      if (req.body.grant_type === DEVICE_GRANT) {
        const d = state.devices.get(req.body.device_code ?? "");
        if (!d) return oauthError("incorrect_device_code", "The device_code provided is not valid.");
        if (d.slowDownNext) {
          d.slowDownNext = false;
          return oauthError("slow_down", "Too many requests.", { interval: state.fixtures.deviceIntervalSeconds + 5 });
        }
        if (d.status === "pending") return oauthError("authorization_pending", "The authorization request is still pending.");
        if (d.status === "denied") return oauthError("access_denied", "The authorization request was denied.");
        if (d.status === "expired") return oauthError("expired_token", "The device_code has expired.");
        if (d.status === "consumed") return oauthError("incorrect_device_code", "The device_code was already used.");
        d.status = "consumed";
        return tokenBody(d.login!);
      }
      if (req.body.grant_type === "refresh_token") {
        const r = state.refreshTokens.get(req.body.refresh_token ?? "");
        if (!r || r.used) return oauthError("bad_refresh_token", "The refresh token passed is incorrect or expired.");
        r.used = true; // one-use rotation
        return tokenBody(r.login);
      }
      return oauthError("unsupported_grant_type", "Unsupported grant type.");
    },
  },
  {
    method: "GET",
    pattern: /^\/user$/,
    auth: true,
    handle(req, _m, state) {
      const u = state.user(req.login!)!;
      const issued = state.tokens.get(req.token!);
      // GitHub's own shape for a personal access token's expiry: "2021-10-07 19:07:53 UTC".
      const expiry = issued?.announcesExpiry && issued.expiresAt !== undefined ? new Date(issued.expiresAt).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC") : null;
      return ok({ login: u.login, id: u.id, name: u.name, type: "User" }, expiry ? { "github-authentication-token-expiration": expiry } : undefined);
    },
  },
  {
    method: "GET",
    pattern: /^\/user\/memberships\/orgs\/([^/]+)$/,
    auth: true,
    handle(req, m, state) {
      const org = decodeURIComponent(m[1]);
      const s = state.membership(req.login!, org);
      if (!s) return notFound();
      return ok({ state: s, role: "member", organization: { login: org }, user: { login: req.login } });
    },
  },
  {
    method: "GET",
    pattern: /^\/user\/installations$/,
    auth: true,
    handle(req, _m, state) {
      const mine = state.fixtures.installations.filter((i) => i.users.includes(req.login!));
      return paged(mine, req, (page) => ({
        total_count: mine.length,
        installations: page.map((i) => ({
          id: i.id,
          account: { login: i.account, type: i.accountType },
          repository_selection: "selected",
          app_slug: "chopin-fake",
        })),
      }));
    },
  },
  {
    method: "GET",
    pattern: /^\/user\/installations\/(\d+)\/repositories$/,
    auth: true,
    handle(req, m, state) {
      const inst = state.fixtures.installations.find((i) => i.id === Number(m[1]) && i.users.includes(req.login!));
      if (!inst) return notFound();
      const repos = inst.repositoryIds.map((id) => state.repoById(id)!).filter((r) => r && state.canRead(req.login!, r));
      return paged(repos, req, (page) => ({ total_count: repos.length, repositories: page.map((r) => repoJson(r, req.baseUrl)) }));
    },
  },
];
