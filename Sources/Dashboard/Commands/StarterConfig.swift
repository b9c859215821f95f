/// The commented starter file `hammock init` writes.
public enum StarterConfig {
    /// The schema `hammock init` writes beside the config, named in its first line.
    public static let schemaFile = "hammock.schema.json"

    public static let text = """
        # yaml-language-server: $schema=./hammock.schema.json
        # hammock.yaml — what Hammock watches. Run `hammock check hammock.yaml` after editing.
        # Every mistake is reported as file:line:col with what is wrong.
        title: My API

        service:
          baseURL: ${API_URL:-http://127.0.0.1:8080/}   # ${VAR} and ${VAR:-default} come from the environment
          # headers:
          #   Authorization: "Bearer ${API_TOKEN}"       # values from the environment are never shown
          expiration: 30s     # panes without an `every` refresh this often (250ms, 5s, 2m, 1h)
          retry: 2s           # a failed pane is tried again this long after the failure
          timeout: 10s        # a request taking longer fails with "The request timed out"
          # auth:               # one kind; sent only to this base URL's origin
          #   bearer: "${API_TOKEN}"                       # or bearer: { file: ~/.config/api/token }
          #   basic: { user: ops, password: "${API_PASSWORD}" }
          #   login: { resource: /auth/token, body: { json: { user: ops, password: "${API_PASSWORD}" } }, token: access_token }
          #   oauth2: { tokenURL: https://sso.example/token, clientId: hammock, clientSecret: "${CLIENT_SECRET}" }
          # tls:
          #   ca: certs/internal-ca.pem                  # trust a private CA (a file or a folder)
          #   clientCert: certs/me.pem                   # mutual TLS
          #   clientKey: certs/me.key

        # services:           # more APIs in one file: each pane names its own (service: billing)
        #   billing:
        #     baseURL: ${BILLING_URL:-http://127.0.0.1:9000/api/}
        #     headers: { X-Api-Key: "${BILLING_KEY}" }
        #     cookies: true   # a cookie jar of its own, in memory

        # configure:          # blocks matched by URL pattern, applied in order; all that match apply
        #   - pattern: /orders/**
        #     methods: [GET]
        #     expiration: 10s
        #     pipeline:
        #       model: [ { select: items }, { sort: -total }, { limit: 20 } ]
        #       cleanup: [ errorMessage ]   # lift {"message": …} from error bodies onto the screen

        panes:
          - title: Health
            resource: /health
            every: 5s         # refreshed every 5 s, start to start (overrides expiration)
            show: fields      # fields | table | text | json | value
            fields: [status]
            # expect: ["status == 200", "latency < 500ms"]   # or the pane turns ⚠ and says why
          # - title: Invoices
          #   service: billing
          #   resource: /invoices/due
          #   show: table
          #   columns: [id, customer, { path: total, format: number, decimals: 2 }]

        layout:
          columns: 2
        """
}
