"""Matchup runs rotate their seats unless asked not to. The runs stored before were all played
with fixed seats (deck A in seat 0): they are marked so, and still replay as they were played."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="matchuprun",
            name="fixed_seats",
            field=models.BooleanField(default=True),
        ),
        migrations.AlterField(
            model_name="matchuprun",
            name="fixed_seats",
            field=models.BooleanField(
                default=False,
                help_text="Every side keeps its seat in every game (else the seats rotate: game k seats side (s + k) mod N in seat s).",
            ),
        ),
        migrations.AlterField(
            model_name="matchuprun",
            name="agents",
            field=models.JSONField(default=list, help_text="Agent name per side."),
        ),
        migrations.AlterField(
            model_name="matchuprun",
            name="results",
            field=models.JSONField(
                default=list,
                help_text='Per game: {"winner" (side), "length", "turns", "end_reason", "first_player" (seat), "first_side", "seats" (the side in each seat)}.',
            ),
        ),
        migrations.AlterField(
            model_name="matchuprun",
            name="sides",
            field=models.JSONField(
                default=list,
                help_text='One entry per side (deck and agent), in the seat it takes in the first game: {"label", "deck", "version", "hash", "agent"} at start.',
            ),
        ),
    ]
