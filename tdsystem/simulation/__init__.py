"""The harness: whole tournaments played through the real services, and seatings built to
order for the tests and the benchmarks.

Nothing of the running system imports this package (an import-linter contract in
`.importlinter` keeps it so); it imports the apps it drives. It is an app only so that
`manage.py simulate_event` finds its command; it has no models.

- `event`: one tournament from registration to the winner, checked after every step.
- `festival`: a main event's Day 1 flights played at once, then Day 2 (`--flights`).
- `dealers`: the dealers' rotation beside a simulated event (`--dealers`).
- `seatings`: `arrange` and `field` seat players to order; `seating_problems` and
  `count_problems` check an event's rows against the seating rules and the stored counts.
"""
