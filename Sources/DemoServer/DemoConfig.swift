/// The demo config, built in so `hammock demo` works from any directory.
///
/// A copy of `config/demo.yaml`; a test keeps the two identical.
public enum DemoConfig {
    public static let yaml = #"""
# The built-in demo: `hammock demo` serves a small API on 127.0.0.1 and opens this file against it.
# Each pane shows one thing the dashboard does; read it next to what you see on screen.
# Quit and start it again: the panes show their cached data and history at once ("cached 5s ago").
title: Demo Shop API
service:
  # `hammock demo` sets HAMMOCK_DEMO_URL to the address it picked; ${VAR:-default} is the fallback.
  baseURL: ${HAMMOCK_DEMO_URL:-http://127.0.0.1:8731/}
  expiration: 5s           # how often panes without an `every` of their own refresh
  retry: 2s                # a failed pane is tried again 2 s after its failure
  timeout: 3s              # a request that takes longer fails with "The request timed out"
configure:
  # Every block whose pattern matches applies, in this order; later blocks win.
  - pattern: /secure/**
    headers:
      Authorization: "Bearer ${DEMO_TOKEN:-demo-token}"   # shown as ${DEMO_TOKEN:-demo-token}, never the value
  - pattern: /orders
    pipeline:
      model: [ { select: items } ]                          # the pane sees the list, not the envelope
  - pattern: /payments
    pipeline:
      cleanup: [ errorMessage ]                              # lift {"message": …} into the error line
panes:
  - title: Health
    resource: /health
    every: 2s
    show: fields
    fields:
      - { path: status, colors: { UP: green, DOWN: red } }   # the value's own colour
      - version
      - uptime
    # Conditions every response must meet; a pane that misses one turns yellow and says why.
    expect: ["status == 200", "latency < 500ms", "body.status == UP"]
    history: 120           # probes kept for the sparkline and p50/p95 (they survive a restart)
  - title: Open orders
    resource: /orders
    params: { state: open }
    every: 5s
    show: table
    columns:
      - { path: id, label: Order }
      - { path: customer, label: Customer }
      - { path: total, label: Total, format: number }  # 1,234.5 (v shows values raw)
    expect: ["body.count > 0"]     # body is what the pipeline made: the items list
  - title: Payments
    resource: /payments
    every: 3s
    show: fields
    fields: [status]
  - title: Flaky
    resource: /flaky
    every: 1s
    show: value
    select: attempt
  - title: Slow report
    resource: /slow
    every: 5s
    show: json
    expect: ["latency < 1s"]       # the demo's slow endpoint takes 1.5 s, so this one is unmet
  - title: Metrics
    resource: /metrics
    every: 2s
    show: text
  - title: Profile (needs a token)
    resource: /secure/profile
    show: fields
    fields: [name, plan]
  - title: Failed searches
    resource: /search
    method: POST
    body: { query: "status:failed" }
    show: value
    select: count
layout:
  columns: auto          # as many 40-column panes as the terminal fits

"""#
}
