"""``railbook simulate``: games of bots, played in parallel (processes or a Ray cluster), written as JSON lines,
summed up in a report for designers and compared between two designs."""
