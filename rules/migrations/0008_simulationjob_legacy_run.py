from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0007_simulation_chunk_lease"),
    ]

    operations = [
        migrations.AddField(
            model_name="simulationjob",
            name="legacy_run",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="The id of the matchup run this job was carried over from (migration "
                "0009), so that the run's old /matchups/<id>/ links find it; empty for every job "
                "since.",
                null=True,
                unique=True,
            ),
        ),
        migrations.AlterField(
            model_name="simulationjob",
            name="pairings",
            field=models.JSONField(
                default=list,
                help_text='Per pairing: {"sides" (the deck index of each side, in its seat of the '
                'pairing\'s first game), "agents" (per side), "setup" (the engine setup), "games", '
                'and "fixed_seats" where every side keeps its seat in every game (else seats '
                "rotate)}.",
            ),
        ),
    ]
