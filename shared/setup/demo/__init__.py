"""The demo kernel: a realistic board with its dossiers and a synthetic, seeded spine."""
