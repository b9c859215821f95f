/// The commented starter file `hammock init` writes.
public enum StarterConfig {
    public static let text = """
        # hammock.yaml — what Hammock watches. Run `hammock check hammock.yaml` after editing.
        # Every mistake is reported as file:line:col with what is wrong.
        title: My API

        service:
          baseURL: ${API_URL:-http://127.0.0.1:8080/}   # ${VAR} and ${VAR:-default} come from the environment
          # headers:
          #   Authorization: "Bearer ${API_TOKEN}"       # values from the environment are never shown
          expiration: 30s     # how long data stays fresh (250ms, 5s, 2m, 1h)
          retry: 2s           # how long to wait after a failure before trying again
          timeout: 10s        # a request taking longer fails with "The request timed out"

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
            every: 5s         # how often to refresh (only when the data is stale)
            show: fields      # fields | table | text | json | value
            fields: [status]

        layout:
          columns: 2
        """
}
