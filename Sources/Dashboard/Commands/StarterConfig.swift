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
          expiration: 30s     # panes without an `every` refresh this often (250ms, 5s, 2m, 1h)
          retry: 2s           # a failed pane is tried again this long after the failure
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
            every: 5s         # refreshed every 5 s, start to start (overrides expiration)
            show: fields      # fields | table | text | json | value
            fields: [status]

        layout:
          columns: 2
        """
}
