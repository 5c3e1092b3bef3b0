from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0009_matchup_runs_to_jobs"),
    ]

    operations = [
        migrations.DeleteModel(name="MatchupRun"),
    ]
