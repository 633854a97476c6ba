"""The fake world: the model, the disk, the shell, the clock and the people a harness meets.
Its public names are re-exported by the package `lab`, whose docstring tells how time works here."""
